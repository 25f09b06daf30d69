/**
 * The text an identity challenge asks to sign (Agents_CreateIdentityChallenge), shaped after
 * EIP-4361 (Sign-In with Ethereum) so wallets show it legibly: the service's host and origin
 * (`PUBLIC_BASE_URL`), the identity (canonical locator), the agent, the CAIP-2 chain id where
 * the locator has a network, a random nonce, the issue and expiry times and the challenge id.
 * An ADDRESS challenge also names the wallet-agent relation it proves, in its
 * statement and on a `Wallet Relation:` line, so the signature covers the relation.
 * The exact text is stored with the challenge; proofs are checked against the stored text.
 */

/** What a challenge message names. */
export interface ChallengeMessageInput {
  /** `PUBLIC_BASE_URL` (an origin, no trailing slash). */
  readonly origin: string
  readonly agentId: string
  readonly agentName: string
  /** The canonical locator (src/identity/Locator.ts). */
  readonly locator: string
  /** The CAIP-2 chain id of the locator's network; null for DIDs. */
  readonly caip2: string | null
  readonly nonce: string
  readonly issuedAt: Date
  readonly expiresAt: Date
  readonly challengeId: string
  /** The wallet-agent relation an ADDRESS challenge proves (OWNER, OPERATOR, PAYOUT, TREASURY); null for other kinds. */
  readonly relation: string | null
}

/** The line of a challenge message that names its wallet relation (checked again by the proof). */
export const relationLine = (relation: string): string => `Wallet Relation: ${relation}`

/** The message text (lines joined by "\n", no trailing newline). */
export const challengeMessage = (m: ChallengeMessageInput): string =>
  [
    `${new URL(m.origin).host} wants you to prove control of an identity for an agent:`,
    m.locator,
    "",
    `Sign to bind this identity to the agent ${m.agentName} (${m.agentId}) in the Agent Directory` +
    (m.relation === null ? ". " : `, as its ${m.relation} wallet. `) +
    "Signing costs nothing and authorizes no transaction.",
    "",
    `URI: ${m.origin}/api/v1/agents/${m.agentId}`,
    "Version: 1",
    ...(m.relation === null ? [] : [relationLine(m.relation)]),
    ...(m.caip2 === null ? [] : [`Chain ID: ${m.caip2}`]),
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt.toISOString()}`,
    `Expiration Time: ${m.expiresAt.toISOString()}`,
    `Request ID: ${m.challengeId}`
  ].join("\n")
