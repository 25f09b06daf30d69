/**
 * Following a run live: `Runtime_StreamRunEvents`, added to `RuntimeApi`.
 * The stream itself is built in `./RunEventStream.ts`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { RunEvent } from "./Schemas.js"
import { operation } from "../../api/operation.js"
import { RunNotFound, StreamLimitReached } from "../Errors.js"

/** The `Last-Event-ID` request header: the `seq` of the last event the client has (a non-negative integer, as text). */
export const LastEventIdHeader = Schema.Struct({
  "last-event-id": Schema.optional(
    Schema.String.pipe(Schema.pattern(/^(0|[1-9][0-9]{0,14})$/)).annotations({
      description: "Resume after this event: the `id` (`seq`, a non-negative integer) of the last event received. " +
        "Absent: from the first event."
    })
  )
})

/**
 * The stream's media type: each SSE event's `event` is a `kind`, its `data` the JSON of the
 * event's `data`. (A suspended schema: `HttpApi` would split a top-level union into one
 * response per member and lose the media type.)
 */
const EventStream = Schema.suspend((): Schema.Schema<RunEvent, typeof RunEvent.Encoded> => RunEvent).pipe(
  HttpApiSchema.withEncoding({ kind: "Json", contentType: "text/event-stream" })
).annotations({ description: "One run event (schema/runEvents.ts) per SSE event: `event: <kind>`, `data: <JSON of data>`, `id: <seq>`" })

/** GET /api/v1/runs/{runId}/events. */
export const streamRunEvents = HttpApiEndpoint.get("streamRunEvents", "/api/v1/runs/:runId/events")
  .setPath(Schema.Struct({ runId: Uuid }))
  .setHeaders(LastEventIdHeader)
  .addSuccess(EventStream)
  .addSuccess(HttpApiSchema.Empty(204).annotations({
    description: "The run is finished and has no event after `Last-Event-ID`: nothing to follow (an EventSource stops)"
  }))
  .pipe(
    operation({
      id: "Runtime_StreamRunEvents",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 500, 503],
      summary: "Follow a run live (Server-Sent Events)",
      description: "Streams the run's events as Server-Sent Events (`text/event-stream`, WHATWG HTML §9.2), in the " +
        "order they happened: `run.state` (the run's new state, version and failure code), `message.delta` (text " +
        "appended to the answer), `message.completed`, `tool_call` (a tool call's state and approval state) and `usage` " +
        "(tokens so far, cost). Each is sent as `id: <seq>` (1, 2, … per run), `event: <kind>` and `data: <JSON>` (the " +
        "`data` of the RunEvent schema below). The stream starts with `retry: 1000`; a `: keep-alive` comment is sent " +
        "after 15 s without an event. It ends (the server closes it) once the run is finished (SUCCEEDED, FAILED, " +
        "CANCELLED, TIMED_OUT) and its last event has been sent, or after 15 minutes whatever the run does (both " +
        "configurable): to resume, send the `id` of the last event received as `Last-Event-ID` (an EventSource does " +
        "this by itself) and only the later events come. A finished run with no event after `Last-Event-ID` answers " +
        "204 (which stops an EventSource from reconnecting). Events written by any server process sharing the database " +
        "reach every follower. Of a run whose playground data was cleared, `message.delta` events are left out. " +
        "Who may follow is who may read the run (Runtime_GetRun): the run's agent must be operated by a workspace the " +
        "caller is an ACTIVE member of, and a run of a conversation is followed by the conversation's author and the " +
        "workspace's OWNER and ADMIN members; otherwise, and when the run does not exist, the answer is 404 " +
        "`run-not-found` (its existence is not revealed). A server process serves a bounded number of streams: over it, 503 `stream-limit-reached` with " +
        "`Retry-After`.",
      errors: [RunNotFound, StreamLimitReached]
    })
  )
