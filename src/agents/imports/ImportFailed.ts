/**
 * Why an import failed: its reasons (`AgentImportReason`: `{code, detail, pointer}`), and
 * the reasons of a document that breaks its format's schema (`code: schema`, the rule as
 * `detail`, the JSON pointer (RFC 6901) of the offending member as `pointer`).
 */
import { Data, ParseResult } from "effect"
import type { AgentImportReason } from "../../../schema/agentImports.js"

/** Most schema reasons one import records (the first ones, in document order). */
export const MaxSchemaReasons = 20

/** An import that cannot succeed, with its reasons. */
export class ImportFailed extends Data.TaggedError("ImportFailed")<{ readonly reasons: ReadonlyArray<AgentImportReason> }> {
  /** A failure with one reason without a pointer. */
  static of(code: string, detail: string) {
    return new ImportFailed({ reasons: [{ code, detail, pointer: null }] })
  }
}

/** RFC 6901 pointer of a parse path. */
const pointerOf = (path: ReadonlyArray<PropertyKey>) =>
  path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("")

/**
 * The schema reasons of a decode failure. The detail is the rule broken; Effect's default
 * messages end with the value found (`Expected string, actual 5`), which is cut: a reason
 * names the member and the rule, not the remote document's content.
 */
export const schemaFailure = (error: ParseResult.ParseError, format: string): ImportFailed =>
  new ImportFailed({
    reasons: ParseResult.ArrayFormatter.formatErrorSync(error).slice(0, MaxSchemaReasons).map((issue) => ({
      code: "schema",
      detail: issue._tag === "Missing"
        ? `${format}: this member is required`
        : `${format}: ${issue.message.replace(/,?\s*actual[\s\S]*$/, "").replace(/\s+/g, " ").trim()}`,
      pointer: pointerOf(issue.path)
    }))
  })
