/**
 * REFERENCE ONLY: the bench's job kind on the project's earlier job queue (`./Jobs.ts`):
 * `noop2` with payload `{ key }`, the counterpart of the engine's `Noop2` workflow.
 */
import { Schema } from "effect"
import { jobKind } from "./Jobs.js"

/** The bench's job kind: payload `{ key }`. */
export const Noop2Job = jobKind("noop2", Schema.Struct({ key: Schema.String }))
