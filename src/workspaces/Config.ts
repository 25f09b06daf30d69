/**
 * The workspaces area's settings, read from the environment (Effect `Config`) and validated
 * at start-up (docs/configuration.md). The root provides {@link WorkspaceSettingsLive} with the
 * other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"
import { boundedInteger } from "../../layers/AppConfig.js"

/** The workspaces area's settings. */
export interface WorkspaceSettingsShape {
  readonly workspaces: {
    /** How long an invitation stays PENDING before it EXPIRES (`INVITATION_TTL_DAYS`, 1..90, default 14). */
    readonly invitationTtlDays: number
    /**
     * How long a closing workspace stays CLOSING before it is CLOSED, on the engine's durable
     * clock (`WORKSPACE_CLOSE_GRACE_HOURS`, 0..2160, default 168: seven days).
     */
    readonly closeGraceHours: number
    /**
     * How often each process looks for due webhook deliveries (`WEBHOOK_POLL_INTERVAL_MS`,
     * 50..60000, default 1000; src/workspaces/webhooks/Delivery.ts).
     */
    readonly webhookPollIntervalMs: number
  }
}

/** The workspaces area's settings. */
export class WorkspaceSettings
  extends Context.Tag("agent-directory/WorkspaceSettings")<WorkspaceSettings, WorkspaceSettingsShape>()
{}

/** Reads and validates the workspaces area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const workspaceSettings: Config.Config<WorkspaceSettingsShape> = Config.all({
  workspaces: Config.all({
    invitationTtlDays: boundedInteger("INVITATION_TTL_DAYS", 1, 90, 14),
    closeGraceHours: boundedInteger("WORKSPACE_CLOSE_GRACE_HOURS", 0, 2160, 168),
    webhookPollIntervalMs: boundedInteger("WEBHOOK_POLL_INTERVAL_MS", 50, 60_000, 1000)
  })
})

/** The workspaces area's settings from the environment. */
export const WorkspaceSettingsLive = Layer.effect(WorkspaceSettings, workspaceSettings)
