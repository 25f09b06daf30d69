/**
 * The legacy batch (spec §9) with networks named in CAIP-2: a line naming a
 * known network by its CAIP-2 id gets the same record as by key (no NETWORK_UNKNOWN), an EVM
 * address may be a CAIP-10 account id, a malformed CAIP-2 id is NETWORK_MALFORMED and a
 * well-formed unknown one NETWORK_UNKNOWN. The key-named fixture's report is checked unchanged
 * by LegacyMigration.test.ts.
 */
import { NodeContext } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DemoRegistries } from "../../demo/agents/seed.js"
import { migrateLegacyIdentities } from "../../src/identity/LegacyMigration.js"
import { Resolver } from "../../src/identity/Resolver.js"
import { TestConfigLayer } from "../support/config.js"
import { TestDb } from "../support/TestServer.js"

const dir = mkdtempSync(join(tmpdir(), "caip2-"))
const Live = Resolver.Default.pipe(Layer.provideMerge(TestDb), Layer.provideMerge(TestConfigLayer), Layer.merge(NodeContext.layer))

const line = (network: string | null, kind: string, nativeId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    source: "v0",
    legacyAgentId: nativeId.slice(-4),
    networkFamily: kind === "ASSET" ? "SVM" : "EVM",
    network,
    protocol: kind === "ASSET" ? "metaplex-core" : null,
    locatorKind: kind,
    registry: null,
    nativeId,
    ...extra
  })

/** Runs the batch on `lines` and returns the report records without their `line`, `source` and `legacyAgentId`. */
const run = (name: string, lines: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const input = join(dir, `${name}.in.jsonl`)
    writeFileSync(input, lines.join("\n") + "\n")
    yield* migrateLegacyIdentities({ input, output: join(dir, `${name}.out.jsonl`) })
    return readFileSync(join(dir, `${name}.out.jsonl`), "utf8").trimEnd().split("\n").map((l) => {
      const { line: _l, source: _s, legacyAgentId: _id, ...rest } = JSON.parse(l) as Record<string, unknown>
      return rest
    })
  })

const atlasAddress = "0xa11ce0000000000000000000000000000000a7a5"
const svmAsset = "Cs8KY3PiWrCMAytMsBRQo8EdGbticVtdvufLnb2UhXh"

layer(Live)("legacy batch: networks by CAIP-2", (it) => {
  it.effect("a CAIP-2 id of a known network resolves as its key does; CAIP-10 addresses too", () =>
    Effect.gen(function*() {
      const byKey = yield* run("key", [
        line("base", "ADDRESS", atlasAddress),
        line("solana", "ASSET", svmAsset),
        line("base", "REGISTRY_TOKEN", "1", { registry: DemoRegistries.erc8004 })
      ])
      const byCaip2 = yield* run("caip2", [
        line("eip155:8453", "ADDRESS", atlasAddress),
        line("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "ASSET", svmAsset),
        line("eip155:8453", "REGISTRY_TOKEN", "1", { registry: DemoRegistries.erc8004 })
      ])
      expect(byKey.map((r) => r["status"])).toEqual(["UNIQUE", "UNIQUE", "UNIQUE"])
      expect(byCaip2).toEqual(byKey)
      const caip10 = yield* run("caip10", [
        line(null, "ADDRESS", `eip155:8453:${atlasAddress}`),
        line("base", "ADDRESS", `eip155:8453:${atlasAddress}`)
      ])
      expect(caip10).toEqual([byKey[0], byKey[0]])
    }))

  it.effect("malformed CAIP-2 → NETWORK_MALFORMED; unknown chain → NETWORK_UNKNOWN; another chain in CAIP-10 → NETWORK_MISMATCH", () =>
    Effect.gen(function*() {
      const report = yield* run("bad", [
        line("EIP155:8453", "ADDRESS", atlasAddress),
        line("eip155:", "ADDRESS", atlasAddress),
        line("eip155:999999", "ADDRESS", atlasAddress),
        line("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "ADDRESS", atlasAddress),
        line("base", "ADDRESS", `eip155:1:${atlasAddress}`),
        line(null, "ADDRESS", `eip155:424242:${atlasAddress}`)
      ])
      expect(report.map((r) => [r["status"], r["reasons"]])).toEqual([
        ["INVALID", [{ code: "NETWORK_MALFORMED", field: "network" }]],
        ["INVALID", [{ code: "NETWORK_MALFORMED", field: "network" }]],
        ["INVALID", [{ code: "NETWORK_UNKNOWN", field: "network" }]],
        ["INVALID", [{ code: "NETWORK_FAMILY_MISMATCH", field: "network" }]],
        ["INVALID", [{ code: "NETWORK_MISMATCH", field: "network" }]],
        ["INVALID", [{ code: "NETWORK_UNKNOWN", field: "nativeId" }]]
      ])
    }))
})
