/**
 * The problem causes of the agents area's own commands (the shared ones are in
 * `schema/errors.ts`). Each is one `Schema.TaggedError` (see `Problem` in
 * `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 409 `slug-taken`: another agent holds the `canonicalSlug` (slugs are unique across the directory). */
export class SlugTaken extends Problem<SlugTaken>()("SlugTaken", {
  status: 409, type: "slug-taken", meaning: "`canonicalSlug` is taken by another agent"
}) {}
