/**
 * The areas' settings, assembled: each area reads its own (`src/<area>/Config.ts`, Effect
 * `Config` from the environment, validated at start-up); the cross-cutting ones (port,
 * database, environment, keys, budgets, logging, engine, outbound, …) are `AppConfig`
 * (layers/AppConfig.ts). `src/startup.ts` provides {@link AreaSettingsLive} beside `AppConfigLive`.
 */
import { type Config, Layer } from "effect"
import { accountSettings, AccountSettingsLive, type AccountSettingsShape } from "./accounts/Config.js"
import { workspaceSettings, WorkspaceSettingsLive, type WorkspaceSettingsShape } from "./workspaces/Config.js"
import { endpointProbeSettings, EndpointProbeSettingsLive, type EndpointProbeSettingsShape } from "./endpointHealth/Config.js"
import { mcpSettings, McpSettingsLive, type McpSettingsShape } from "./mcp/Config.js"
import { mcpServerSettings, McpServerSettingsLive, type McpServerSettingsShape } from "./mcpServer/Config.js"
import { runtimeSettings, RuntimeSettingsLive, type RuntimeSettingsShape } from "./runtime/Config.js"
import {
  tokenOperationSettings,
  TokenOperationSettingsLive,
  type TokenOperationSettingsShape
} from "./growth/tokenOperations/Config.js"
import { adsSettings, AdsSettingsLive, type AdsSettingsShape } from "./growth/ads/Config.js"
import { orderSettings, OrderSettingsLive, type OrderSettingsShape } from "./commerce/orders/Config.js"
import {
  processorWebhookSettings,
  ProcessorWebhookSettingsLive,
  type ProcessorWebhookSettingsShape
} from "./commerce/webhooks/Config.js"
import { paymentSettings, PaymentSettingsLive, type PaymentSettingsShape } from "./commerce/payments/Config.js"
import { searchSettings, SearchSettingsLive, type SearchSettingsShape } from "./agents/Config.js"
import { bountySettings, BountySettingsLive, type BountySettingsShape } from "./jobs/bounties/Config.js"

/** Every area's settings as `Config` values (what each reads), for docs and checks. */
export const areaSettingsConfigs: ReadonlyArray<Config.Config<unknown>> = [
  runtimeSettings,
  mcpSettings,
  mcpServerSettings,
  endpointProbeSettings,
  accountSettings,
  workspaceSettings,
  tokenOperationSettings,
  adsSettings,
  orderSettings,
  processorWebhookSettings,
  paymentSettings,
  searchSettings,
  bountySettings
]

/**
 * Every area's settings, from the environment: `RuntimeSettings`, `McpSettings`, `McpServerSettings`,
 * `EndpointProbeSettings`, `AccountSettings`, `WorkspaceSettings`, `TokenOperationSettings`, `AdsSettings`,
 * `OrderSettings`, `ProcessorWebhookSettings`, `PaymentSettings`, `SearchSettings`, `BountySettings`.
 */
export const AreaSettingsLive = Layer.mergeAll(
  RuntimeSettingsLive,
  McpSettingsLive,
  McpServerSettingsLive,
  EndpointProbeSettingsLive,
  AccountSettingsLive,
  WorkspaceSettingsLive,
  TokenOperationSettingsLive,
  AdsSettingsLive,
  OrderSettingsLive,
  ProcessorWebhookSettingsLive,
  PaymentSettingsLive,
  SearchSettingsLive,
  BountySettingsLive
)

/** Every area's settings in one object (each area's tag holds its part). */
export type AreaSettingsShape =
  & RuntimeSettingsShape
  & McpSettingsShape
  & McpServerSettingsShape
  & EndpointProbeSettingsShape
  & AccountSettingsShape
  & WorkspaceSettingsShape
  & TokenOperationSettingsShape
  & AdsSettingsShape
  & OrderSettingsShape
  & ProcessorWebhookSettingsShape
  & PaymentSettingsShape
  & SearchSettingsShape
  & BountySettingsShape
