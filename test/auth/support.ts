/** Helpers shared by the Accounts and auth tests. */
import { expect } from "@effect/vitest"
import type { Reply } from "../support/http.js"

/** A lowercase uuid (versions 1-8, RFC 4122 variant). */
export const UuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/**
 * A problem body without the per-request fields (`requestId`, `instance`), so the
 * bodies of different requests can be compared for identity.
 */
export const withoutRequestFields = (body: unknown): Record<string, unknown> => {
  expect(typeof body).toBe("object")
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  expect(typeof copy["requestId"]).toBe("string")
  expect(typeof copy["instance"]).toBe("string")
  delete copy["requestId"]
  delete copy["instance"]
  return copy
}

/** The `Set-Cookie` header of a reply, split into its attributes (lowercased names). */
export const cookieAttributes = (reply: Reply): { readonly pair: string; readonly attributes: ReadonlyArray<string> } => {
  const header = reply.headers["set-cookie"]
  expect(header, "Set-Cookie header").toBeDefined()
  const [pair, ...attributes] = (header ?? "").split(";").map((part) => part.trim())
  return { pair: pair ?? "", attributes }
}
