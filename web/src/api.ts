/**
 * The pages' API client: `openapi-fetch` over the types `openapi-typescript` generates from the
 * contract at build time (web/contract.ts), so every path, parameter and body the pages use is
 * checked against `src/api/Api.ts`. Same origin: the pages are served by the API's process, and
 * the session cookie goes with each request.
 */
import createClient from "openapi-fetch"
import type { components, paths } from "../.generated/api"

export type Schemas = components["schemas"]
export type AgentListItem = Schemas["AgentListItem"]
export type AgentFacets = Schemas["AgentFacets"]
export type AgentProfile = Schemas["AgentProfile"]
export type AgentTrust = Schemas["AgentTrust"]
export type AgentFinding = Schemas["AgentFinding"]
export type ServiceOffer = Schemas["ServiceOffer"]

/** The client; `credentials: "same-origin"` sends the session cookie. */
export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" })

/** An RFC 9457 problem as the pages show it: its title and detail. */
export interface Problem {
  readonly title?: string
  readonly detail?: string
  readonly status?: number
}

/** The message a failed call shows: the problem's detail, else its title, else the status. */
export const problemText = (error: unknown, response: Response): string => {
  const p = (error ?? {}) as Problem
  return p.detail ?? p.title ?? `The service answered ${response.status}.`
}
