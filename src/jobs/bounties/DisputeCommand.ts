/**
 * The canonical dispute resolution command (spec §4.2): what an operator previews
 * and approves. Pure functions, no I/O. (The `decisionDigest` the escrow contract verifies is
 * the EIP-712 digest of the payout: src/jobs/bounties/Escrow.ts.)
 */
import { createHash } from "node:crypto"
import { canonicalJson } from "../../../layers/CanonicalJson.js"
import type { DisputeResolution } from "./Schemas.js"

/** Every input that decides the payout; the hash covers all of it. */
export interface DisputeCommand {
  readonly bountyId: string
  readonly disputeId: string
  readonly expectedVersion: number
  readonly resolution: DisputeResolution
  readonly unitsToProvider: bigint
  readonly unitsToClient: bigint
  readonly reason: string
  readonly network: string
  readonly contractAddress: string
  readonly walletPublicId: string
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest()

/** `commandHash`: base64url (43 chars, no padding) SHA-256 of the command's canonical JSON (units as decimal strings). */
export const commandHash = (c: DisputeCommand): string =>
  sha256(canonicalJson({
    operation: "Jobs_ResolveBountyDispute",
    ...c,
    unitsToProvider: c.unitsToProvider.toString(),
    unitsToClient: c.unitsToClient.toString()
  })).toString("base64url")

/** The text an operator echoes as `confirmation` to apply. */
export const confirmationText = (c: Pick<DisputeCommand, "disputeId" | "resolution">): string =>
  `RESOLVE ${c.disputeId} ${c.resolution}`

/**
 * The units rule of `resolution` for an escrow of `escrow` units, or null when the
 * split is valid: RELEASE → all to the provider, REFUND → all to the client, SPLIT →
 * both positive; always summing to the escrow (bigint arithmetic).
 */
export const unitsRuleBroken = (
  resolution: DisputeResolution,
  toProvider: bigint,
  toClient: bigint,
  escrow: bigint
): { readonly pointer: string; readonly detail: string } | null => {
  if (resolution === "RELEASE" && toClient !== 0n) return { pointer: "/unitsToClient", detail: "must be 0 for RELEASE" }
  if (resolution === "REFUND" && toProvider !== 0n) return { pointer: "/unitsToProvider", detail: "must be 0 for REFUND" }
  if (resolution === "SPLIT" && toProvider === 0n) return { pointer: "/unitsToProvider", detail: "must be positive for SPLIT" }
  if (resolution === "SPLIT" && toClient === 0n) return { pointer: "/unitsToClient", detail: "must be positive for SPLIT" }
  if (toProvider + toClient !== escrow) {
    return { pointer: "/unitsToProvider", detail: "unitsToProvider + unitsToClient must equal the escrowed amount" }
  }
  return null
}
