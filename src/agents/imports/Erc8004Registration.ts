/**
 * The ERC-8004 ("Trustless Agents") registration file as an Effect Schema: the JSON an
 * ERC-8004 identity token's URI points at.
 *
 * ```json
 * { "type": "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
 *   "name": "…", "description": "…", "image": "https://…",
 *   "endpoints": [{ "name": "A2A", "endpoint": "https://…/agent-card.json", "version": "0.3.0" }],
 *   "registrations": [{ "agentId": 22, "agentRegistry": "eip155:8453:0x8004…" }],
 *   "supportedTrust": ["reputation", "crypto-economic", "tee-attestation"] }
 * ```
 *
 * `agentRegistry` is a CAIP-10 account id of the EVM namespace (`eip155:<chainId>:<address>`),
 * the identity registry contract; `agentId` is the agent's ERC-721 token id there (a JSON
 * number or a decimal string). Unknown members are allowed (endpoint capabilities, extensions).
 */
import { Schema } from "effect"
import { rule } from "../../../schema/common.js"

/** An optional member: absent or of `schema` (never `undefined`, which JSON does not have, so a problem names only the member's rule). */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
import { toChecksumAddress } from "../../identity/Locator.js"

/** The `type` of a version 1 registration file. */
export const Erc8004RegistrationType = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1"

const NonEmpty = (what: string) =>
  Schema.String.pipe(Schema.minLength(1)).annotations(rule(`${what} must be a non-empty string`))

/** CAIP-10 of the eip155 namespace: a decimal chain id and a 20-byte hex address. */
const Caip10Eip155 = /^eip155:([1-9][0-9]{0,31}):(0x[0-9a-fA-F]{40})$/

/** An endpoint of the agent (`name`: A2A, MCP, ENS, DID, agentWallet, …). */
export const Erc8004Endpoint = Schema.Struct({
  name: NonEmpty("endpoint name"),
  endpoint: NonEmpty("endpoint"),
  version: optional(Schema.String.annotations(rule("endpoint version must be a string")))
})

/** A registration: the agent's token id in an identity registry. */
export const Erc8004Registration = Schema.Struct({
  agentId: Schema.Union(
    Schema.Int.pipe(Schema.nonNegative()),
    Schema.String.pipe(Schema.pattern(/^(?:0|[1-9][0-9]{0,77})$/))
  ).annotations(rule("agentId must be a non-negative integer (a JSON number or a decimal string)")),
  agentRegistry: Schema.String.pipe(Schema.pattern(Caip10Eip155)).annotations(
    rule("agentRegistry must be a CAIP-10 account id eip155:<chainId>:<0x address>")
  )
})

/** A version 1 registration file. */
export const Erc8004RegistrationFile = Schema.Struct({
  type: Schema.Literal(Erc8004RegistrationType).annotations(rule(`type must be ${Erc8004RegistrationType}`)),
  name: NonEmpty("name"),
  description: optional(Schema.String.annotations(rule("description must be a string"))),
  image: optional(Schema.String.annotations(rule("image must be a string"))),
  endpoints: Schema.Array(Erc8004Endpoint).annotations(rule("endpoints must be an array")),
  registrations: optional(Schema.Array(Erc8004Registration).annotations(rule("registrations must be an array"))),
  supportedTrust: optional(Schema.Array(Schema.String).annotations(rule("supportedTrust must be an array of strings")))
})
export type Erc8004RegistrationFile = typeof Erc8004RegistrationFile.Type

/**
 * The locator parts of a registration: family EVM, kind REGISTRY_TOKEN, network as CAIP-2
 * (`eip155:<chainId>`), the registry contract in EIP-55 form and the token id in decimal.
 */
export const registrationLocator = (r: typeof Erc8004Registration.Type) => {
  const [, chainId, address] = Caip10Eip155.exec(r.agentRegistry)!
  return {
    network: `eip155:${chainId}`,
    registry: toChecksumAddress(address!.slice(2).toLowerCase()),
    nativeId: BigInt(r.agentId).toString()
  }
}
