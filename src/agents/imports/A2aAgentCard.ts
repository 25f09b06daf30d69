/**
 * The A2A Agent Card as the import reads it: the card Schemas (src/agents/Schemas.ts,
 * re-exported here) and the card's interfaces in the order the profile shows them.
 */
import type { A2aAgentCard } from "../Schemas.js"

export * from "../Schemas.js"

/**
 * The card's interfaces in its order (the first is preferred): 1.0's `supportedInterfaces`,
 * or 0.3's `url` with `preferredTransport` (JSONRPC when absent) then `additionalInterfaces`
 * not repeating it.
 */
export const cardInterfaces = (card: A2aAgentCard) => {
  if (card.supportedInterfaces !== undefined && card.supportedInterfaces.length > 0) {
    return card.supportedInterfaces.map((i) => ({ url: i.url, protocolBinding: i.protocolBinding, protocolVersion: i.protocolVersion ?? null }))
  }
  const version = card.protocolVersion ?? null
  const main = { url: card.url!, protocolBinding: card.preferredTransport ?? "JSONRPC", protocolVersion: version }
  const more = (card.additionalInterfaces ?? [])
    .filter((i) => !(i.url === main.url && i.transport === main.protocolBinding))
    .map((i) => ({ url: i.url, protocolBinding: i.transport, protocolVersion: version }))
  return [main, ...more]
}
