/**
 * Signing secrets of webhook subscriptions: Standard Webhooks secrets (`whsec_` + base64 of 32
 * random bytes), sealed at rest with AES-256-GCM (layers/TokenCipher.ts) under the key derived
 * from `APP_SECRET` for this purpose, bound to their subscription (a sealed value copied to
 * another subscription does not open).
 */
import { randomBytes } from "node:crypto"
import { Redacted } from "effect"
import { makeTokenCipher } from "../../../layers/TokenCipher.js"

/** A new signing secret. */
export const newSigningSecret = (): Redacted.Redacted<string> => Redacted.make(`whsec_${randomBytes(32).toString("base64")}`)

const aad = (subscriptionId: string) => `webhook_subscriptions.secret:${subscriptionId}`

/** Seals and opens the secrets of subscriptions with `key`. */
export const webhookSecretCipher = (key: Redacted.Redacted<Buffer>) => {
  const cipher = makeTokenCipher([{ kid: "app", key }])
  return {
    seal: (subscriptionId: string, secret: Redacted.Redacted<string>) => cipher.seal(secret, aad(subscriptionId)),
    open: (subscriptionId: string, sealed: string) => cipher.open(sealed, aad(subscriptionId))
  }
}
