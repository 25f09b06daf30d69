/**
 * The services area's face: what other areas use of it (.dependency-cruiser.cjs, `area-internals`):
 * its contract group (`ServicesApi`, whose Services_ListAgentOffers the MCP server's tool
 * `list_agent_offers` answers), its domain service (`Services`) and the offer's wire schema.
 */
export { ServicesApi } from "./Api.js"
export { Services } from "./Services.js"
export { DefaultX402ResourceTemplate, ServiceOffer } from "./Schemas.js"
