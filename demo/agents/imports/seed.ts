/**
 * Demo data of agent imports: Atlas Research's A2A Agent Card and ERC-8004 registration
 * file, imported (SUCCEEDED) with what they stored (skills, interfaces, provider,
 * endpoints, an unproven identity claim), and a FAILED import of Beacon Monitor.
 * Loaded by the demo seed after the agents area.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../../accounts/seed.js"
import { DemoAgents, DemoRegistries } from "../seed.js"
import { demoId as id, demoTime } from "../../common.js"
import { cardInterfaces } from "../../../src/agents/imports/A2aAgentCard.js"
import { Erc8004RegistrationType } from "../../../src/agents/imports/Erc8004Registration.js"

const atlas = DemoAgents[0].id
const beacon = DemoAgents[1].id

/** Atlas Research's A2A Agent Card (A2A 0.3 shape, as most published cards are). */
export const DemoAgentCard = {
  name: "Atlas Research",
  description: "Deep research on demand: literature reviews, market scans and cited summaries.",
  url: "https://atlas-research.example/a2a/v1",
  preferredTransport: "JSONRPC",
  additionalInterfaces: [{ url: "https://atlas-research.example/a2a/rest", transport: "HTTP+JSON" }],
  protocolVersion: "0.3.0",
  version: "1.4.0",
  provider: { organization: "Acme Agents", url: "https://acme.example" },
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain", "application/json"],
  skills: [
    {
      id: "literature-review",
      name: "Literature review",
      description: "Finds and summarises the papers on a question, with citations.",
      tags: ["research", "citations"],
      examples: ["Summarise recent work on agent payment protocols"]
    },
    {
      id: "market-scan",
      name: "Market scan",
      description: "Lists the vendors of a market with their positioning.",
      tags: ["research", "markets"],
      outputModes: ["application/json"]
    }
  ]
} as const

/** Atlas Research's ERC-8004 registration file: token 1 of the demo registry on Base (eip155:8453). */
export const DemoRegistrationFile = {
  type: Erc8004RegistrationType,
  name: "Atlas Research",
  description: "Deep research on demand.",
  image: "https://atlas-research.example/logo.png",
  endpoints: [
    { name: "A2A", endpoint: "https://atlas-research.example/.well-known/agent-card.json", version: "0.3.0" },
    { name: "agentWallet", endpoint: "eip155:8453:0x1111111111111111111111111111111111111111" }
  ],
  registrations: [{ agentId: 1, agentRegistry: `eip155:8453:${DemoRegistries.erc8004}` }],
  supportedTrust: ["reputation"]
} as const

/** The demo imports. */
export const DemoImports = {
  atlasCard: { id: id(0x2a0, 1), agent: atlas, kind: "A2A_AGENT_CARD", url: "https://atlas-research.example/.well-known/agent-card.json" },
  atlasRegistration: { id: id(0x2a0, 2), agent: atlas, kind: "ERC8004_REGISTRATION", url: "https://atlas-research.example/erc8004.json" },
  beaconFailed: { id: id(0x2a0, 3), agent: beacon, kind: "A2A_AGENT_CARD", url: "https://beacon-monitor.example/.well-known/agent-card.json" }
} as const

/** The demo identity claim (Atlas's registration). */
export const DemoIdentityClaim = { id: id(0x2a1, 1), network: "eip155:8453", registry: DemoRegistries.erc8004, nativeId: "1" } as const

export const seedAgentImports = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const at = (n: number) => demoTime(140, n)
  const card = DemoAgentCard
  const result = (r: Record<string, unknown>) =>
    JSON.stringify({ name: "Atlas Research", skills: 0, interfaces: 0, endpoints: 0, identityClaims: 0, signatures: 0, tools: 0, ...r })
  yield* sql`INSERT INTO agent_imports ${
    sql.insert([
      { ...DemoImports.atlasCard, state: "SUCCEEDED", reasons: "[]", result: result({ skills: 2, interfaces: 2, signatureState: "UNSIGNED", signatureKid: null }), n: 0 },
      { ...DemoImports.atlasRegistration, state: "SUCCEEDED", reasons: "[]", result: result({ endpoints: 2, identityClaims: 1 }), n: 10 },
      {
        ...DemoImports.beaconFailed,
        state: "FAILED",
        reasons: JSON.stringify([{ code: "http-404", detail: "the server answered HTTP 404", pointer: null }]),
        result: null,
        n: 20
      }
    ].map((i) => ({
      id: i.id,
      agent_id: i.agent,
      kind: i.kind,
      url: i.url,
      state: i.state,
      reasons: i.reasons,
      result: i.result,
      requested_by: DemoAccounts.owner.id,
      created_at: at(i.n),
      updated_at: at(i.n + 1),
      started_at: at(i.n),
      finished_at: at(i.n + 1)
    })))
  }`
  const text = JSON.stringify(card, null, 2)
  yield* sql`INSERT INTO agent_a2a_cards (agent_id, import_id, card_text, card, provider_organization, provider_url, fetched_at, signature_state)
    VALUES (${atlas}, ${DemoImports.atlasCard.id}, ${text}, ${text}::jsonb, ${card.provider.organization}, ${card.provider.url}, ${at(1)}, 'UNSIGNED')`
  yield* sql`INSERT INTO agent_skills ${
    sql.insert(card.skills.map((s, position) => ({
      agent_id: atlas,
      position,
      import_id: DemoImports.atlasCard.id,
      skill_id: s.id,
      name: s.name,
      description: s.description,
      tags: JSON.stringify(s.tags),
      examples: JSON.stringify("examples" in s ? s.examples : []),
      input_modes: JSON.stringify(card.defaultInputModes),
      output_modes: JSON.stringify("outputModes" in s ? s.outputModes : card.defaultOutputModes)
    })))
  }`
  yield* sql`INSERT INTO agent_interfaces ${
    sql.insert(cardInterfaces(card).map((i, position) => ({
      agent_id: atlas,
      position,
      import_id: DemoImports.atlasCard.id,
      url: i.url,
      protocol_binding: i.protocolBinding,
      protocol_version: i.protocolVersion
    })))
  }`
  yield* sql`INSERT INTO agent_registration_endpoints ${
    sql.insert(DemoRegistrationFile.endpoints.map((e, position) => ({
      agent_id: atlas,
      position,
      import_id: DemoImports.atlasRegistration.id,
      name: e.name,
      endpoint: e.endpoint,
      version: "version" in e ? e.version : null
    })))
  }`
  yield* sql`INSERT INTO agent_identity_claims
    (id, agent_id, import_id, family, kind, network_caip2, registry, native_id, proof_state, created_at)
    VALUES (${DemoIdentityClaim.id}, ${atlas}, ${DemoImports.atlasRegistration.id}, 'EVM', 'REGISTRY_TOKEN',
            ${DemoIdentityClaim.network}, ${DemoIdentityClaim.registry}, ${DemoIdentityClaim.nativeId}, 'UNPROVEN', ${at(11)})`
})
