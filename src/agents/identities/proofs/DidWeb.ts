/**
 * DID proofs. `did:key` (Ed25519 only): the key is the DID's own multibase multicodec value.
 * `did:web` (https://w3c-ccg.github.io/did-method-web/): the DID document is fetched from
 * `https://<host>/.well-known/did.json` (no path) or `https://<host>/<path…>/did.json`,
 * through `did-resolver` with this small `web` method; its keys are the Ed25519 verification
 * methods its `authentication` relation names (Ed25519VerificationKey2020 or Multikey with
 * `publicKeyMultibase`, Ed25519VerificationKey2018 with `publicKeyBase58`, JsonWebKey2020 with
 * an OKP/Ed25519 `publicKeyJwk`). Fetched through the outbound client. A loopback host
 * (`127.0.0.1`, `localhost`, `[::1]`) is read over plain http: the outbound client refuses it
 * unless the operator allows it (`OUTBOUND_ALLOWED_HOSTS`), which local tests do.
 */
import { base58, base64urlnopad } from "@scure/base"
import { type DIDDocument, type DIDResolutionResult, type DIDResolver, Resolver, type VerificationMethod } from "did-resolver"
import { Effect } from "effect"
import { DidNotResolvable } from "../../Errors.js"
import { ed25519FromMultibase } from "./Ed25519.js"
import { type ProofFetch, withProofTimeout } from "./fetch.js"

/** Largest DID document read, in bytes. */
const MaxDocumentBytes = 64 * 1024

const loopback = new Set(["127.0.0.1", "localhost", "[::1]"])

/** The document URL of a did:web method-specific id (`host[%3Aport][:path…]`), or undefined when malformed. */
export const didWebUrl = (id: string): URL | undefined => {
  const segments = id.split(":").map((s) => decodeURIComponent(s))
  const host = segments[0]!
  if (host === "" || segments.some((s) => s === "" || s.includes("/"))) return undefined
  const path = segments.length === 1 ? "/.well-known/did.json" : `/${segments.slice(1).join("/")}/did.json`
  const hostname = host.replace(/:\d+$/, "")
  try {
    return new URL(`${loopback.has(hostname) ? "http" : "https"}://${host}${path}`)
  } catch {
    return undefined
  }
}

const notFound = (error: string): DIDResolutionResult => ({
  didDocument: null,
  didDocumentMetadata: {},
  didResolutionMetadata: { error }
})

/** The `web` method for `did-resolver` over `fetch`: fetches and checks the document (its `id` must be the DID). */
const webMethod = (fetch: ProofFetch): DIDResolver => async (did, parsed) => {
  const url = didWebUrl(parsed.id)
  if (url === undefined) return notFound("invalidDid")
  const response = await fetch(url, { headers: { accept: "application/did+json, application/json" } })
  if (!response.ok) return notFound("notFound")
  const body = await response.arrayBuffer()
  if (body.byteLength > MaxDocumentBytes) return notFound("documentTooLarge")
  const document = JSON.parse(new TextDecoder().decode(body)) as DIDDocument
  if (typeof document !== "object" || document === null || document.id !== did) return notFound("notFound")
  return { didDocument: document, didDocumentMetadata: {}, didResolutionMetadata: { contentType: "application/did+json" } }
}


/** The Ed25519 public key of one verification method, or undefined when it is not one. */
const ed25519Of = (method: VerificationMethod): Uint8Array | undefined => {
  if (typeof method.publicKeyMultibase === "string") return ed25519FromMultibase(method.publicKeyMultibase)
  if (method.type === "Ed25519VerificationKey2018" && typeof method.publicKeyBase58 === "string") {
    try {
      const key = base58.decode(method.publicKeyBase58)
      return key.length === 32 ? key : undefined
    } catch {
      return undefined
    }
  }
  const jwk = method.publicKeyJwk
  if (jwk !== undefined && jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string") {
    try {
      const key = base64urlnopad.decode(jwk.x)
      return key.length === 32 ? key : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The Ed25519 keys of a document's `authentication` relation (references resolved against `verificationMethod`). */
export const authenticationKeys = (document: DIDDocument): ReadonlyArray<Uint8Array> => {
  const methods = document.verificationMethod ?? []
  const byId = (ref: string) =>
    methods.find((m) => m.id === ref || (ref.startsWith("#") && m.id === `${document.id}${ref}`))
  const keys: Array<Uint8Array> = []
  for (const entry of document.authentication ?? []) {
    const method = typeof entry === "string" ? byId(entry) : entry
    const key = method === undefined ? undefined : ed25519Of(method)
    if (key !== undefined) keys.push(key)
  }
  return keys
}

/**
 * The Ed25519 authentication keys of a did:web DID. Fails with `DidNotResolvable` when the
 * document cannot be fetched (timeout, status, size, JSON) or names no Ed25519 key.
 */
export const didWebKeys = (did: string, fetch: ProofFetch): Effect.Effect<ReadonlyArray<Uint8Array>, DidNotResolvable> =>
  Effect.tryPromise({
    try: () => new Resolver({ web: webMethod(withProofTimeout(fetch)) }).resolve(did),
    catch: () => new DidNotResolvable({ detail: "The did:web document could not be read." })
  }).pipe(
    Effect.flatMap((result) => {
      if (result.didDocument === null) {
        return Effect.fail(new DidNotResolvable({ detail: "The did:web document could not be read." }))
      }
      const keys = authenticationKeys(result.didDocument)
      return keys.length === 0
        ? Effect.fail(new DidNotResolvable({ detail: "The DID document's authentication names no Ed25519 key." }))
        : Effect.succeed(keys)
    })
  )

/** The Ed25519 key a did:key DID encodes (method-specific id `z6Mk…`), or undefined for another key type. */
export const didKeyKey = (id: string): Uint8Array | undefined => ed25519FromMultibase(id)
