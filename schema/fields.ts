/**
 * The top-level field names of an optional struct schema (an endpoint's path, query,
 * headers or payload schema); none when the schema is absent. Used to tell which part
 * of a request a field belongs to (problem `errors[].in`, OpenAPI examples).
 */
import { Option, type Schema } from "effect"
import * as AST from "effect/SchemaAST"

export const fieldsOf = (schema: Option.Option<Schema.Schema.All>): ReadonlyArray<string> =>
  Option.match(schema, { onNone: () => [], onSome: (s) => AST.getPropertySignatures(s.ast).map((p) => String(p.name)) })
