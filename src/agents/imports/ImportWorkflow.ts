/**
 * The agent import workflow on the durable engine, started by
 * Agents_ImportAgentSource in its transaction, one execution per import, one activity:
 * 1. QUEUED → RUNNING (`startedAt`), committed at once so a reader sees it running;
 * 2. the kind's work: fetch the document through the guarded outbound client
 *    (`SourceFetch.ts`), validate it against its format's schema (a card's signatures are
 *    verified, `CardSignatures.ts`), and in one transaction
 *    store what it describes on the agent and mark the import SUCCEEDED with its
 *    `result`; any {@link ImportFailed} instead marks it FAILED with its reasons.
 *
 * An MCP server import failing because the URL does not answer as MCP also records an
 * ENDPOINT_NOT_MCP finding (src/mcp/findings/) in the failing transaction.
 *
 * A crash between the steps leaves the import RUNNING, and the engine runs the activity
 * again: step 1 accepts a RUNNING import, and step 2 replaces what an earlier run stored,
 * so running twice stores once.
 */
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { Effect, Either, Option, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { McpSettings } from "../../mcp/index.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import { fetchCatalog, McpConnections, NotMcpCodes, type ObservedCatalog, recordEndpointNotMcp } from "../../mcp/index.js"
import type { AgentImportResult } from "../../../schema/agentImports.js"
import { A2aAgentCard, cardInterfaces } from "./A2aAgentCard.js"
import { cardSignerHost, verifyCardSignatures } from "./CardSignatures.js"
import { Erc8004RegistrationFile, registrationLocator } from "./Erc8004Registration.js"
import { ImportFailed, schemaFailure } from "./ImportFailed.js"
import { AgentImportsRepo, type ImportTarget } from "./Repo.js"
import { fetchJsonDocument } from "./SourceFetch.js"

/** The workflow: run import `importId` (execution id from `importId`). */
export const AgentImportWorkflow = Workflow.make({
  name: "AgentImport",
  payload: { importId: Schema.String },
  idempotencyKey: ({ importId }) => importId
})

const decodeOptions = { errors: "all", onExcessProperty: "ignore" } as const

/** Decodes `json` as `schema`, or the schema reasons of `format`. */
const validate = <A, I>(schema: Schema.Schema<A, I>, json: unknown, format: string) =>
  Schema.decodeUnknown(schema, decodeOptions)(json).pipe(Effect.mapError((e) => schemaFailure(e, format)))

const emptyResult: AgentImportResult = { name: null, skills: 0, interfaces: 0, endpoints: 0, identityClaims: 0, signatures: 0, tools: 0 }

/** The `name` of an MCP server's `serverInfo`, if it gave one. */
const serverName = (serverInfo: unknown): string | null => {
  const name = (serverInfo as { readonly name?: unknown } | null)?.name
  return typeof name === "string" ? name : null
}

/**
 * The work of one kind: fetches and validates, and returns the effect that stores the
 * result on the agent (run in the finishing transaction) with the import's `result`.
 */
const work = (importId: string, target: ImportTarget) =>
  Effect.gen(function*() {
    const repo = yield* AgentImportsRepo
    const at = yield* now
    switch (target.kind) {
      case "A2A_AGENT_CARD": {
        const { json, text } = yield* fetchJsonDocument(target.url)
        const card = yield* validate(A2aAgentCard, json, "A2A Agent Card")
        const signature = yield* verifyCardSignatures(json)
        const interfaces = cardInterfaces(card)
        const skills = card.skills.map((s) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          tags: s.tags,
          examples: s.examples ?? [],
          inputModes: s.inputModes ?? card.defaultInputModes,
          outputModes: s.outputModes ?? card.defaultOutputModes
        }))
        const store = repo.storeCard({
          agentId: target.agentId,
          importId,
          cardText: text,
          card: json,
          provider: card.provider ?? null,
          signature,
          signerHost: cardSignerHost(signature, target.url),
          skills,
          interfaces,
          at
        })
        return {
          store,
          result: {
            ...emptyResult,
            name: card.name,
            skills: skills.length,
            interfaces: interfaces.length,
            signatures: card.signatures?.length ?? 0,
            signatureState: signature.state,
            signatureKid: signature.kid
          }
        }
      }
      case "ERC8004_REGISTRATION": {
        const { json } = yield* fetchJsonDocument(target.url)
        const file = yield* validate(Erc8004RegistrationFile, json, "ERC-8004 registration file")
        const ids = yield* Ids
        const locators = (file.registrations ?? []).map(registrationLocator)
        // one claim per locator, however often the file repeats it
        const unique = [...new Map(locators.map((l) => [`${l.network}|${l.registry}|${l.nativeId}`, l])).values()]
        const claims = yield* Effect.forEach(unique, (l) => Effect.map(ids.next, (id) => ({ id, ...l })))
        const endpoints = file.endpoints.map((e) => ({ name: e.name, endpoint: e.endpoint, version: e.version ?? null }))
        return {
          store: repo.storeRegistration({ agentId: target.agentId, importId, endpoints, claims, at }),
          result: { ...emptyResult, name: file.name, endpoints: endpoints.length, identityClaims: claims.length }
        }
      }
      case "MCP_SERVER": {
        // The server must answer as an MCP server (initialize and its lists) or ask for
        // OAuth (a 401: the connection is then added AUTH_REQUIRED, completed through
        // MCP_BeginMcpOAuth); the connection's own refresh then stores the catalog.
        const config = yield* McpSettings
        const outbound = yield* Outbound
        const observed = yield* fetchCatalog({
          serverUrl: target.url,
          transport: "AUTO",
          accessToken: Option.none(),
          fetch: outbound.fetch,
          timeoutMs: config.mcpCatalog.requestTimeoutMs
        }).pipe(
          Effect.map(Option.some),
          Effect.catchAll((failure) =>
            failure.code === "auth-required"
              ? Effect.succeed(Option.none<ObservedCatalog>())
              : ImportFailed.of(failure.code, "the URL did not answer as an MCP server (initialize and its lists)")
          )
        )
        const connections = yield* McpConnections
        return {
          store: connections.ensureForAgent({ agentId: target.agentId, serverUrl: target.url, transport: "AUTO" }),
          result: {
            ...emptyResult,
            name: Option.match(observed, { onNone: () => null, onSome: (c) => serverName(c.serverIdentity) }),
            tools: Option.match(observed, { onNone: () => 0, onSome: (c) => (Array.isArray(c.tools) ? c.tools.length : 0) })
          }
        }
      }
    }
  })

/** The workflow's implementation, registered on the engine. Requires `SqlClient`, `Outbound`, `Ids` (plus the engine). */
export const AgentImportLive = AgentImportWorkflow.toLayer(({ importId }) =>
  Activity.make({
    name: "import",
    execute: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* AgentImportsRepo
      const target = yield* repo.start(importId, yield* now)
      if (Option.isNone(target)) return
      const outcome = yield* Effect.either(work(importId, target.value))
      yield* sql.withTransaction(Either.match(outcome, {
        onLeft: (failure) =>
          Effect.flatMap(now, (at) => {
            const code = failure.reasons[0]?.code
            const notMcp = target.value.kind === "MCP_SERVER" && code !== undefined && NotMcpCodes.has(code)
            return Effect.zipRight(
              Effect.asVoid(repo.fail(importId, failure.reasons, at)),
              notMcp
                ? recordEndpointNotMcp({ agentId: target.value.agentId, connectionId: null, url: target.value.url, code, at })
                : Effect.void
            )
          }),
        onRight: ({ result, store }) =>
          Effect.asVoid(Effect.zipRight(store, Effect.flatMap(now, (at) => repo.succeed(importId, result, at))))
      }))
    }).pipe(retryTransient, Effect.orDie, Effect.provide([AgentImportsRepo.Default, McpConnections.Default]))
  }).pipe(survivingStorageErrors))
