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
  readonly type?: string
  readonly title?: string
  readonly detail?: string
  readonly status?: number
}

/** The message a failed call shows: the problem's detail, else its title, else the status. */
export const problemText = (error: unknown, response: Response): string => {
  const p = (error ?? {}) as Problem
  return p.detail ?? p.title ?? `The service answered ${response.status}.`
}

/** The kind of a failed call's problem: the last segment of its `type` (`payer-wallet-required`), if any. */
export const problemKind = (error: unknown): string | undefined => {
  const type = ((error ?? {}) as Problem).type
  return type === undefined ? undefined : type.slice(type.lastIndexOf("/") + 1)
}

/** `units` minor units as a decimal amount of an asset of `decimals` decimals (`2500000`, 6 → `2.5`). */
export const formatUnits = (units: string, decimals: number): string => {
  if (decimals <= 0) return units
  const padded = units.padStart(decimals + 1, "0")
  const whole = padded.slice(0, padded.length - decimals)
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}
