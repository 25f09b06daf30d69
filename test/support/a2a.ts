/**
 * A2A 1.0 helpers for tests: the JSON Schema of an Agent Card (test/fixtures/a2a/, validated
 * with ajv) and `@a2a-js/sdk` clients of the real listening test server.
 */
import { AgentCard } from "@a2a-js/sdk"
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from "@a2a-js/sdk/client"
import { HttpServer } from "@effect/platform"
import { expect } from "@effect/vitest"
import Ajv2020 from "ajv/dist/2020.js"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { testConfig } from "./config.js"

const schema = JSON.parse(readFileSync(join(process.cwd(), "test", "fixtures", "a2a", "agent-card.schema.json"), "utf8"))
const validate = new Ajv2020.default({ allErrors: true, strict: false }).compile(schema)

/** Asserts that `card` is an A2A 1.0 Agent Card: the specification's JSON Schema, and the SDK's codec keeps what it says. */
export const expectA2aCard = (card: unknown) => {
  const valid = validate(card)
  expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([])
  expect(valid).toBe(true)
  const c = card as Record<string, any>
  const json = AgentCard.toJSON(AgentCard.fromJSON(c)) as Record<string, any>
  expect(json["name"]).toBe(c["name"])
  expect(json["supportedInterfaces"]).toEqual(c["supportedInterfaces"])
  expect(json["skills"].map((s: any) => s.id)).toEqual(c["skills"].map((s: any) => s.id))
  expect(json["defaultInputModes"]).toEqual(c["defaultInputModes"])
  expect(json["defaultOutputModes"]).toEqual(c["defaultOutputModes"])
}

/** The test server's own URL (a real listening socket). */
export const baseUrl = Effect.map(HttpServer.HttpServer, (s) => `http://127.0.0.1:${(s.address as HttpServer.TcpAddress).port}`)

/**
 * A fetch that sends requests for the deployment's `PUBLIC_BASE_URL` (where cards point) to
 * the test server at `base`, with `headers` added.
 */
export const fetchTo = (base: string, headers: Record<string, string> = {}): typeof fetch => (input, init) => {
  const url = String(input instanceof Request ? input.url : input).replace(testConfig().publicBaseUrl, base)
  const merged = new Headers(input instanceof Request ? input.headers : init?.headers)
  for (const [k, v] of Object.entries(headers)) merged.set(k, v)
  if (input instanceof Request) return fetch(new Request(url, input), { headers: merged })
  return fetch(url, { ...init, headers: merged })
}

/** The SDK's client factory on `fetchImpl`, preferring `transport` when given. */
export const clientFactory = (fetchImpl: typeof fetch, transport?: "JSONRPC" | "HTTP+JSON") =>
  new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    ...(transport === undefined ? {} : { preferredTransports: [transport] })
  }))
