/**
 * Outbound event kinds (docs/webhooks.md): a kind is `<family>.<what>` (`order.paid`); a webhook
 * subscription takes `<family>.*` or exact kinds. Shared by the writer (layers/Events.ts) and the
 * subscriptions' contract (src/workspaces/webhooks/Schemas.ts).
 */

/** The families of event kinds. */
export const EventFamilies = ["order", "payment", "entitlement", "run", "bounty", "import", "invitation"] as const
export type EventFamily = typeof EventFamilies[number]

/** An event kind: its family, a dot, then lower-case words joined by `_` or `.`. */
export type EventKind = `${EventFamily}.${string}`
