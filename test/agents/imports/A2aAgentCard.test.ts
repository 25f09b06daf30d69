/**
 * The A2A Agent Card schema (src/agents/imports/A2aAgentCard.ts) against `@a2a-js/sdk`'s
 * `AgentCard` type (a field the SDK adds or renames fails the type check here), and the
 * interfaces read from both card revisions.
 */
import type { AgentCard, AgentInterface, AgentProvider, AgentSkill } from "@a2a-js/sdk"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  A2aAgentCard,
  type A2aAgentCardFields,
  type A2aAgentInterface,
  type A2aAgentProvider,
  type A2aAgentSkill,
  cardInterfaces
} from "../../../src/agents/imports/A2aAgentCard.js"
import { DemoAgentCard } from "../../../demo/agents/imports/seed.js"

describe("A2aAgentCard", () => {
  it("reads every member of the SDK's AgentCard, AgentSkill, AgentInterface and AgentProvider", () => {
    expectTypeOf<Exclude<keyof AgentCard, keyof typeof A2aAgentCardFields>>().toEqualTypeOf<never>()
    expectTypeOf<Exclude<keyof AgentSkill, keyof typeof A2aAgentSkill.fields>>().toEqualTypeOf<never>()
    expectTypeOf<Exclude<keyof AgentInterface, keyof typeof A2aAgentInterface.fields>>().toEqualTypeOf<never>()
    expectTypeOf<Exclude<keyof AgentProvider, keyof typeof A2aAgentProvider.fields>>().toEqualTypeOf<never>()
    // and the SDK's values fit ours
    expectTypeOf<AgentCard["name" | "description" | "version"]>().toMatchTypeOf<A2aAgentCard["name"]>()
    expectTypeOf<AgentCard["defaultInputModes"]>().toMatchTypeOf<A2aAgentCard["defaultInputModes"]>()
    expectTypeOf<AgentSkill["tags"]>().toMatchTypeOf<A2aAgentCard["skills"][number]["tags"]>()
    expectTypeOf<AgentInterface["url" | "protocolBinding"]>().toMatchTypeOf<string>()
  })

  it("interfaces: 0.3's url, preferredTransport and additionalInterfaces; 1.0's supportedInterfaces", () => {
    const legacy = Schema.decodeUnknownSync(A2aAgentCard)(DemoAgentCard)
    expect(cardInterfaces(legacy)).toEqual([
      { url: "https://atlas-research.example/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "0.3.0" },
      { url: "https://atlas-research.example/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "0.3.0" }
    ])
    const { url: _u, preferredTransport: _p, additionalInterfaces: _a, protocolVersion: _v, ...rest } = DemoAgentCard
    const v1 = Schema.decodeUnknownSync(A2aAgentCard)({
      ...rest,
      supportedInterfaces: [{ url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" }]
    })
    expect(cardInterfaces(v1)).toEqual([{ url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" }])
    // neither → invalid
    expect(Either.isLeft(Schema.decodeUnknownEither(A2aAgentCard)(rest))).toBe(true)
  })
})
