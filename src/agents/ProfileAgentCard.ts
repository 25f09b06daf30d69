/**
 * The A2A Agent Card the directory builds for a listed agent that published none
 * (Agents_GetAgentCard), from its profile (Agents_GetAgent): the
 * registered data and what imports added. Shape of A2A 1.0 (`AgentCard` of `@a2a-js/sdk`
 * 1.x), checked against the SDK by test/agents/GetAgentCard.test.ts:
 *
 * - `name`; `description`: the profile's description, else its tagline, else its name;
 *   `version`: the profile's `version` (the directory record's revision, as text: the
 *   directory does not know the agent's own software version);
 * - `supportedInterfaces`: the A2A interfaces imports recorded (`interfaces`), else none
 *   (`[]`): the directory never invents an A2A endpoint. The other endpoints the agent
 *   declared (its ERC-8004 registration file's http(s)/ws(s) `endpoints`, by their name:
 *   MCP, an `A2A` card URL, ...) are in the non-A2A-interfaces extension
 *   (schema/a2aInterfacesExtension.ts), present only when there is one;
 * - `provider` when an import gave one; `documentationUrl`: the agent's canonical
 *   directory URL (`canonicalUrl`, under `PUBLIC_BASE_URL`);
 * - `skills`: the imported skills, then one per PUBLISHED service offer
 *   (`id` `offer:<slug>`, the offer's title and description, tags `service-offer` and its
 *   pricing model);
 * - `defaultInputModes` / `defaultOutputModes`: none known (`[]`); `securitySchemes`,
 *   `securityRequirements` and `signatures`: none (the directory does not sign on the
 *   agent's behalf).
 */
import { type NonA2aInterface, nonA2aInterfacesExtension } from "../../schema/a2aInterfacesExtension.js"
import type { AgentProfile } from "../../schema/agents.js"

const endpointSchemes = new Set(["http:", "https:", "ws:", "wss:"])
const isEndpointUrl = (value: string) => URL.canParse(value) && endpointSchemes.has(new URL(value).protocol)

/** The card built from `profile` (a JSON value; see the module's description). */
export const agentCardFromProfile = (profile: AgentProfile) => {
  const others: Array<NonA2aInterface> = profile.endpoints
    .filter((e) => isEndpointUrl(e.endpoint))
    .map((e) => ({ protocol: e.name, url: e.endpoint, ...(e.version === null ? {} : { protocolVersion: e.version }) }))
  const description = profile.description.trim() !== "" ? profile.description : profile.tagline ?? profile.name
  return {
    name: profile.name,
    description,
    version: String(profile.version),
    supportedInterfaces: profile.interfaces.map((i) => ({
      url: i.url,
      protocolBinding: i.protocolBinding,
      ...(i.protocolVersion === null ? {} : { protocolVersion: i.protocolVersion })
    })),
    ...(profile.provider === null ? {} : { provider: profile.provider }),
    documentationUrl: profile.canonicalUrl,
    capabilities: {
      extensions: others.length === 0 ? [] : [
        nonA2aInterfacesExtension(
          "Endpoints the agent declared that are not A2A protocol bindings (its ERC-8004 registration file), by protocol.",
          others
        )
      ]
    },
    defaultInputModes: [] as Array<string>,
    defaultOutputModes: [] as Array<string>,
    skills: [
      ...profile.skills.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
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
  }
}
