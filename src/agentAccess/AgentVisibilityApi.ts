/** Contract text: the visibility rule of an operated agent, as every Runtime, MCP and identity operation describes it. */
export const agentVisibility = "The agent must be operated by a workspace the caller is an ACTIVE member of; any other " +
  "agent (absent, directory-only, or another workspace's) is not found (404 `agent-not-found`), so its existence is " +
  "not revealed."

