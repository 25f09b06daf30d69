/**
 * The directory's ERC-8004 registration file of an agent (Agents_GetErc8004Registration): the
 * JSON an ERC-8004 Identity Registry token's `agentURI` points at (type `registration-v1`),
 * built from the agent's profile:
 *
 * - `name`, `description` (else the tagline, else the name);
 * - `services`: the A2A Agent Card the directory serves for the agent (when it has an A2A
 *   interface), then the endpoints the agent declared (its imported registration file: MCP, …);
 * - `x402Support`: whether a PUBLISHED offer's current price has an x402 resource;
 * - `active`: the agent is ACTIVE (not retired);
 * - `registrations`: its PROVEN registry tokens (`agentId` the token id, a JSON number when
 *   exact, else a decimal string; `agentRegistry` the registry's CAIP-10 id);
 * - `supportedTrust`: `reputation` (the directory's feedback on the agent).
 *
 * The directory holds no image of an agent, so `image` is absent.
 */
import type { AgentProfile } from "../../../schema/agents.js"
import { Erc8004RegistrationType } from "../imports/Erc8004Registration.js"

/** The registration file of `profile`; `publicBaseUrl` is where the directory is served. */
export const erc8004RegistrationFile = (profile: AgentProfile, publicBaseUrl: string) => {
  const base = publicBaseUrl.replace(/\/+$/, "")
  const a2a = profile.interfaces.length === 0 ? [] : [{
    name: "A2A",
    endpoint: `${base}/api/v1/agents/${profile.entityId}/agent-card`,
    version: profile.interfaces[0]!.protocolVersion ?? "0.3.0"
  }]
  const declared = profile.endpoints
    .filter((e) => e.name !== "A2A" || a2a.length === 0)
    .map((e) => ({ name: e.name, endpoint: e.endpoint, ...(e.version === null ? {} : { version: e.version }) }))
  const registrations = profile.locators
    .filter((l) => l.locatorKind === "REGISTRY_TOKEN" && l.provenAt !== null && l.registry !== null && l.caip2?.startsWith("eip155:"))
    .map((l) => {
      const id = BigInt(l.nativeId)
      return {
        agentId: id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id.toString(),
        agentRegistry: `${l.caip2}:${l.registry}`
      }
    })
  return {
    type: Erc8004RegistrationType,
    name: profile.name,
    description: profile.description.trim() !== "" ? profile.description : profile.tagline ?? profile.name,
    services: [...a2a, ...declared],
    x402Support: profile.offers.some((o) => o.currentPrice !== null && o.currentPrice.x402ResourceTemplate !== null),
    active: profile.state === "ACTIVE",
    registrations,
    supportedTrust: ["reputation"]
  }
}
