/**
 * Endpoint annotation {@link LocationOf}: the `Location` header of a 201 (RFC 9110
 * §10.2.2, the URI of the created resource), computed from the success body, so that a
 * replay of the same Idempotency-Key carries the same header as the first answer.
 * Applied by `src/http/group.ts`.
 */
import { Context } from "effect"

/**
 * Maps an operation's success envelope (the decoded value, or the JSON of a replayed
 * answer: the function must read both) to the path the `Location` header names, or
 * undefined for none.
 */
export class LocationOf extends Context.Tag("agent-directory/LocationOf")<LocationOf, (body: unknown) => string | undefined>() {}
