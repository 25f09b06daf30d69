/**
 * Demo mesh publishers (spec §2.7): Acme's in every state, and the Outsider Lab
 * workspace at its publisher quota of 1. Keys are Ed25519 public keys of fixed seeds.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { publicKeyFingerprint } from "./Schemas.js"
import { DemoAgents } from "../../agents/demo.js"
import { demoId, demoTime } from "../../db/demo.js"
import { DemoWorkspaces } from "../../workspaces/demo.js"

/** The raw Ed25519 public key of demo seed `n` (32 bytes of `n`). */
const demoPublicKey = (n: number) => ed25519.getPublicKey(new Uint8Array(32).fill(n))

/** Padded base64 of demo key `n`. */
export const demoPublicKeyBase64 = (n: number) => Buffer.from(demoPublicKey(n)).toString("base64")

/** Keys no demo publisher holds: the demo manifest registers `fresh`; `spare*` serve tests. */
export const DemoMeshKeys = {
  fresh: demoPublicKeyBase64(101),
  spare1: demoPublicKeyBase64(102),
  spare2: demoPublicKeyBase64(103),
  spare3: demoPublicKeyBase64(104)
} as const

const publisher = (n: number, p: {
  readonly workspace: keyof typeof DemoWorkspaces
  readonly agent: number | null
  readonly state: "PENDING" | "ACTIVE" | "SUSPENDED" | "REVOKED"
  readonly signalTypes: ReadonlyArray<string>
}) => ({ id: demoId(0x86, n), publicKeyId: demoId(0x87, n), key: n, publicKeyBase64: demoPublicKeyBase64(n), day: 90 + n, ...p })

export const DemoMeshPublishers = {
  active: publisher(1, { workspace: "acme", agent: 0, state: "ACTIVE", signalTypes: ["research.report.published", "research.alert"] }),
  pending: publisher(2, { workspace: "acme", agent: null, state: "PENDING", signalTypes: ["acme.status-change"] }),
  suspended: publisher(3, { workspace: "acme", agent: 0, state: "SUSPENDED", signalTypes: ["research.alert"] }),
  revoked: publisher(4, { workspace: "acme", agent: null, state: "REVOKED", signalTypes: ["acme.legacy.signal"] }),
  /** The Outsider Lab's one publisher: its workspace is at its quota. */
  outsider: publisher(5, { workspace: "outsider", agent: null, state: "ACTIVE", signalTypes: ["lab.experiment.result"] })
} as const

/** Per-workspace publisher quotas (others have the default). */
export const DemoMeshQuotas = [["outsider", 1]] as const

/** Inserts the demo publishers and quotas. Fails with `SqlError`. */
export const seedMesh = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO mesh_publishers ${
    sql.insert(Object.values(DemoMeshPublishers).map((p) => ({
      id: p.id,
      workspace_id: DemoWorkspaces[p.workspace].id,
      entity_id: p.agent === null ? null : DemoAgents[p.agent].id,
      public_key_id: p.publicKeyId,
      public_key: Buffer.from(demoPublicKey(p.key)),
      public_key_fingerprint: publicKeyFingerprint(demoPublicKey(p.key)),
      state: p.state,
      allowed_signal_types: JSON.stringify(p.signalTypes),
      rate_per_minute: 60 * p.key,
      rate_burst: 10 * p.key,
      created_at: demoTime(p.day)
    })))
  }`
  yield* sql`INSERT INTO mesh_publisher_quotas ${
    sql.insert(DemoMeshQuotas.map(([workspace, max]) => ({ workspace_id: DemoWorkspaces[workspace].id, max_publishers: max })))
  }`
})
