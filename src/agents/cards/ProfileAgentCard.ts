/**
 * The A2A Agent Card the directory builds for a listed agent that published none
 * (Agents_GetAgentCard), from its profile (Agents_GetAgent): the registered data and what
 * imports added. A2A 1.0 `AgentCard` (specification/a2a.proto; §5.7: required members
 * present, required arrays with at least one element), checked against the SDK and the
 * card's JSON Schema by test/agents/GetAgentCard.test.ts:
 *
 * - only for an agent with at least one A2A interface (`interfaces`, recorded by imports):
 *   `supportedInterfaces` is required and non-empty, and the directory never invents an A2A
 *   endpoint, so without one there is no card ({@link agentCardFromProfile} answers
 *   `undefined`; the endpoint answers 404 `agent-card-not-available`). An interface recorded
 *   without `protocolVersion` (an A2A 0.3 card, whose version defaults to "0.3.0") gets "0.3.0";
 * - `name`; `description`: the profile's description, else its tagline, else its name;
 *   `version`: the profile's `version` (the directory record's revision, as text: the
 *   directory does not know the agent's own software version);
 * - its PUBLISHED service offers with their current price and x402 resource in the service-offers
 *   extension (schema/a2aOffersExtension.ts), present only when it has one;
 * - the other endpoints the agent declared (its ERC-8004 registration file's http(s)/ws(s)
 *   `endpoints`, by their name: MCP, an `A2A` card URL, ...) in the non-A2A-interfaces
 *   extension (schema/a2aInterfacesExtension.ts), present only when there is one;
 * - `provider` when an import gave one; `documentationUrl`: the agent's canonical
 *   directory URL (`canonicalUrl`, under `PUBLIC_BASE_URL`);
 * - `skills`: the imported skills (a skill imported without tags gets the tag `imported`,
 *   without a description its name),
 *   then one per PUBLISHED service offer (`id` `offer:<slug>`, the offer's title and
 *   description, tags `service-offer` and its pricing model); with neither, one skill
 *   describing the agent (`id` `agent`, its name and description, tags its protocol keys,
 *   else `agent`);
 * - `defaultInputModes` / `defaultOutputModes`: the modes the imported skills declare, else
 *   {@link DefaultInputModes} / {@link DefaultOutputModes}; `securitySchemes`,
 *   `securityRequirements` and `signatures`: none (the directory does not sign on the
 *   agent's behalf).
 */
import { type NonA2aInterface, nonA2aInterfacesExtension } from "../../../schema/a2aInterfacesExtension.js"
import type { AgentProfile } from "../../../schema/agents.js"
import { serviceOffersExtension, x402ResourceUrl } from "../../../schema/a2aOffersExtension.js"

const endpointSchemes = new Set(["http:", "https:", "ws:", "wss:"])
const isEndpointUrl = (value: string) => URL.canParse(value) && endpointSchemes.has(new URL(value).protocol)

/** Media types of a built card when the agent's skills declare none (A2A `defaultInputModes`). */
export const DefaultInputModes: ReadonlyArray<string> = ["text/plain", "application/json"]
/** Media types of a built card when the agent's skills declare none (A2A `defaultOutputModes`). */
export const DefaultOutputModes: ReadonlyArray<string> = ["text/plain", "application/json"]

/** The A2A protocol version A2A 0.3 cards default to (their `protocolVersion`). */
const LegacyDefaultProtocolVersion = "0.3.0"

/** The http(s)/ws(s) endpoints the agent declared (ERC-8004 registration file), by protocol. */
export const declaredEndpoints = (profile: AgentProfile): Array<NonA2aInterface> =>
  profile.endpoints
    .filter((e) => isEndpointUrl(e.endpoint))
    .map((e) => ({ protocol: e.name, url: e.endpoint, ...(e.version === null ? {} : { protocolVersion: e.version }) }))

const unique = (values: ReadonlyArray<string>) => [...new Set(values)]

/** The service-offers extension of `profile`'s published offers (URLs under `publicBaseUrl`), or none without one. */
export const offersExtension = (profile: AgentProfile, publicBaseUrl: string) =>
  profile.offers.length === 0 ? [] : [
    serviceOffersExtension(profile.offers.map((o) => ({
      offerId: o.id,
      slug: o.slug,
      title: o.title,
      pricingModel: o.pricingModel,
      url: `${publicBaseUrl.replace(/\/+$/, "")}/api/v1/offers/${o.id}`,
      prices: o.currentPrice === null ? [] : [{
        networkPublicId: o.currentPrice.networkPublicId,
        assetPublicId: o.currentPrice.assetPublicId,
        units: o.currentPrice.units.toString(),
        x402ResourceUrl: o.currentPrice.x402ResourceTemplate === null
          ? null
          : x402ResourceUrl(o.currentPrice.x402ResourceTemplate, o.id, publicBaseUrl)
      }]
    })))
  ]

/**
 * The card built from `profile` (a JSON value; see the module's description), or `undefined` when it
 * lists no A2A interface. `publicBaseUrl`: the directory's public origin (offer and x402 URLs).
 */
export const agentCardFromProfile = (profile: AgentProfile, publicBaseUrl: string) => {
  if (profile.interfaces.length === 0) return undefined
  const others = declaredEndpoints(profile)
  const description = profile.description.trim() !== "" ? profile.description : profile.tagline ?? profile.name
  const skills = [
    ...profile.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description.trim() !== "" ? s.description : s.name,
      tags: s.tags.length > 0 ? s.tags : ["imported"],
      examples: s.examples,
      inputModes: s.inputModes,
      outputModes: s.outputModes
    })),
    ...profile.offers.map((o) => ({
      id: `offer:${o.slug}`,
      name: o.title,
      description: o.description.trim() !== "" ? o.description : o.title,
      tags: ["service-offer", o.pricingModel],
      examples: [] as Array<string>
    }))
  ]
  const inputModes = unique(profile.skills.flatMap((s) => s.inputModes))
  const outputModes = unique(profile.skills.flatMap((s) => s.outputModes))
  return {
    name: profile.name,
    description,
    version: String(profile.version),
    supportedInterfaces: profile.interfaces.map((i) => ({
      url: i.url,
      protocolBinding: i.protocolBinding,
      protocolVersion: i.protocolVersion ?? LegacyDefaultProtocolVersion
    })),
    ...(profile.provider === null ? {} : { provider: profile.provider }),
    documentationUrl: profile.canonicalUrl,
    capabilities: {
      extensions: [
        ...(others.length === 0 ? [] : [
          nonA2aInterfacesExtension(
            "Endpoints the agent declared that are not A2A protocol bindings (its ERC-8004 registration file), by protocol.",
            others
          )
        ]),
        ...offersExtension(profile, publicBaseUrl)
      ]
    },
    defaultInputModes: inputModes.length > 0 ? inputModes : [...DefaultInputModes],
    defaultOutputModes: outputModes.length > 0 ? outputModes : [...DefaultOutputModes],
    skills: skills.length > 0 ? skills : [{
      id: "agent",
      name: profile.name,
      description,
      tags: profile.protocols.length > 0 ? [...profile.protocols] : ["agent"],
      examples: [] as Array<string>
    }]
  }
}
