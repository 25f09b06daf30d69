/**
 * Why a model call failed, as the run records it: an `@effect/ai`
 * failure becomes an {@link AgentRuntimeError} whose `code` is the run's
 * `failureCode` and whose `retryable` tells the run's workflow to try again.
 *
 * | cause | code | retryable |
 * |---|---|---|
 * | HTTP 429 | `MODEL_RATE_LIMITED` | yes |
 * | HTTP 408, 5xx (Anthropic's 529 included), a connection failure or timeout, a stream cut short or an `error` event in it | `MODEL_UNAVAILABLE` | yes |
 * | HTTP 401, 403 | `MODEL_AUTH_FAILED` | no |
 * | another 4xx, a prompt the provider client cannot send | `MODEL_REQUEST_REJECTED` | no |
 * | the server's URL refused by the outbound rules (`OUTBOUND_ALLOWED_HOSTS`) | `MODEL_TARGET_REFUSED` | no |
 * | an answer that does not parse (a malformed stream, a call of a tool not offered) | `MODEL_RESPONSE_INVALID` | yes |
 * | a `provider` naming no profile | `MODEL_PROFILE_UNKNOWN` | no |
 *
 * Messages name the profile and the status only: never the URL's query, a header, the
 * response body, or the API key.
 */
import type { AiError } from "@effect/ai"
import { AgentRuntimeError } from "../AgentRuntime.js"
import { outboundFailureOf } from "../Outbound.js"

const fail = (code: string, retryable: boolean, message: string) => new AgentRuntimeError({ code, retryable, message })

/** The failure of an HTTP status answered by the model server of profile `profile`. */
export const statusFailure = (profile: string, status: number): AgentRuntimeError => {
  const said = `model profile "${profile}": the model server answered HTTP ${status}`
  if (status === 429) return fail("MODEL_RATE_LIMITED", true, `${said} (rate limited)`)
  if (status === 401 || status === 403) return fail("MODEL_AUTH_FAILED", false, `${said} (the credential was refused)`)
  if (status === 408 || status >= 500) return fail("MODEL_UNAVAILABLE", true, said)
  return fail("MODEL_REQUEST_REJECTED", false, `${said} (the request was rejected)`)
}

/** A `provider` that is neither `deterministic` nor a configured profile. */
export const profileUnknown = (profile: string): AgentRuntimeError =>
  fail("MODEL_PROFILE_UNKNOWN", false, `no model profile "${profile}" is configured (MODEL_PROFILES)`)

/** The stream ended without the model's finish, or carried an error event. */
export const streamBroken = (profile: string, what: string): AgentRuntimeError =>
  fail("MODEL_UNAVAILABLE", true, `model profile "${profile}": ${what}`)

/** The failure of an `@effect/ai` error (or any other failure of the provider client) for profile `profile`. */
export const modelFailure = (profile: string, error: AiError.AiError | unknown): AgentRuntimeError => {
  const tag = (error as { readonly _tag?: unknown })._tag
  switch (tag) {
    case "HttpResponseError": {
      const e = error as AiError.HttpResponseError
      return e.reason === "StatusCode"
        ? statusFailure(profile, e.response.status)
        : streamBroken(profile, `the model server's answer could not be read (${e.reason})`)
    }
    case "HttpRequestError": {
      const e = error as AiError.HttpRequestError
      const outbound = outboundFailureOf(e.cause)
      if (outbound !== undefined && outbound.reason !== "timeout" && outbound.reason !== "network" && outbound.reason !== "too-large") {
        return fail("MODEL_TARGET_REFUSED", false, `model profile "${profile}": the model server cannot be reached: ${outbound.rule}`)
      }
      if (e.reason !== "Transport") {
        return fail("MODEL_REQUEST_REJECTED", false, `model profile "${profile}": the request could not be sent (${e.reason})`)
      }
      return streamBroken(profile, `the model server could not be reached${outbound === undefined ? "" : `: ${outbound.rule}`}`)
    }
    case "MalformedInput":
      return fail("MODEL_REQUEST_REJECTED", false, `model profile "${profile}": the conversation cannot be sent to this provider`)
    default:
      return fail("MODEL_RESPONSE_INVALID", true, `model profile "${profile}": the model's answer could not be understood`)
  }
}
