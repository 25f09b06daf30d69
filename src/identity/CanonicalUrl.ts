/** The canonical URL of an agent (spec §9): `{PUBLIC_BASE_URL}/api/v1/agents/{entityId}`. */
export const canonicalAgentUrl = (publicBaseUrl: string, entityId: string): string =>
  `${publicBaseUrl}/api/v1/agents/${entityId}`
