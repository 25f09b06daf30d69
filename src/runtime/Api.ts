/** Runtime area contract (spec §4.4): runtime tools and schedule previews. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { PreviewAgentScheduleRequest, RuntimeTool, SchedulePreview } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { agentVisibility } from "../agentAccess/AgentVisibilityApi.js"
import { clearPlaygroundRunData, sendMessage } from "./runs/Api.js"
import { createConversation, listConversations, listMessages } from "./conversations/Api.js"
import { getRun } from "./runs/ReadsApi.js"
import { streamRunEvents } from "./events/Api.js"
import { createAgentSchedule, deleteAgentSchedule, listAgentSchedules } from "./schedules/Api.js"
import { cancelRun, decideToolApproval } from "./control/Api.js"
import { configureAgentRuntime, getAgentRuntime } from "./config/Api.js"
import { AgentNotFound, ConfigurationMissing, InvalidRequest } from "../../schema/errors.js"

const AgentPath = Schema.Struct({ entityPublicId: Uuid })

export class RuntimeApi extends HttpApiGroup.make("Runtime")
  .add(
    HttpApiEndpoint.get("listRuntimeTools", "/api/v1/agents/:entityPublicId/tools")
      .setPath(AgentPath)
      .addSuccess(Data(Schema.Array(RuntimeTool)))
      .pipe(
        operation({
          id: "Runtime_ListRuntimeTools",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "The tools of an agent's runtime",
          description: "Every tool of the agent's runtime (spec §2.15), whatever its state or availability, ordered " +
            "by `stableName` then `version`. " + agentVisibility + " Every workspace role may read the tools. The tools of " +
            "the agent's MCP connections are among them (`sourceKind` MCP_SERVER, `sourceReference` the connection id, " +
            "`executorKind` MCP, `stableName` `<connection name slug>.<tool name>`, `definitionDigest` `sha256:` + the hex " +
            "SHA-256 of the canonical JSON of `remoteDefinition`, the tool as the server listed it): a changed definition " +
            "is a new `version` (the old one SUPERSEDED), a tool gone from the server's catalog stays, unavailable " +
            "(REMOVED, `unavailableAt`). An agent with no runtime configured and no such tool answers 422 " +
            "`configuration-missing`.",
          errors: [AgentNotFound, ConfigurationMissing]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("previewAgentSchedule", "/api/v1/agents/:entityPublicId/schedules/preview")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(PreviewAgentScheduleRequest)
      .addSuccess(Data(SchedulePreview))
      .pipe(
        operation({
          id: "Runtime_PreviewAgentSchedule",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "The next occurrences of a cron schedule in a time zone",
          description: "The next `count` (1-25, default 8) instants strictly after `from` (default: now) at which " +
            "`cronExpression` fires in the wall-clock time of `timezone` (an IANA name; the answer gives its " +
            "canonical spelling). The expression has five fields (minute hour day-of-month month day-of-week) or is " +
            "one of the crontab(5) macros `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, " +
            "`@hourly`; nothing else (no seconds field, no `@every`, no `@secondly`, `@minutely`, `@weekdays` or " +
            "`@weekends`): no schedule fires more than once a minute. Daylight-saving changes are followed: a wall-clock time skipped by a " +
            "spring-forward change fires once, just after the change at the same offset (02:30 → 03:30); a time " +
            "repeated by a fall-back change fires once, at its first occurrence. An invalid expression or one that " +
            "never fires is a 400 naming `/cronExpression`; an unknown time zone a 400 naming `/timezone`. " +
            agentVisibility + " Every workspace role may preview; no runtime needs to be configured (a preview runs " +
            "nothing and stores nothing).",
          errors: [AgentNotFound, InvalidRequest]
        })
      )
  )
  .add(sendMessage)
  .add(clearPlaygroundRunData)
  .add(createConversation)
  .add(listConversations)
  .add(listMessages)
  .add(getRun)
  .add(streamRunEvents)
  .add(createAgentSchedule)
  .add(listAgentSchedules)
  .add(deleteAgentSchedule)
  .add(decideToolApproval)
  .add(cancelRun)
  .add(configureAgentRuntime)
  .add(getAgentRuntime)
  .annotate(OpenApi.Description, "Runtime: agent runtimes, tools, conversations and schedules")
{}
