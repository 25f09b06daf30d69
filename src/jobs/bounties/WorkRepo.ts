/**
 * SQL of bounties from posting to payout (docs/bounties.md): the wire view of a bounty, who may
 * see and act on it, and the lists. Runs on the caller's `SqlClient` (its transaction).
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Bounty } from "./Schemas.js"

/** The position of a bounty in a list: its creation time and id (newest first). */
export const BountyPosition = Schema.Tuple(Schema.String, Schema.String)

const bountyColumns = `b.id, b.workspace_id AS "workspaceId", b.title, b.description, b.acceptance_criteria AS "acceptanceCriteria",
  b.state, b.version::float8 AS version, b.escrow_units::text AS "rewardUnits", a.caip19 AS asset, b.escrow_network AS network,
  b.escrow_contract_address AS "escrowContractAddress", api_ts(b.deadline_at) AS deadline,
  b.required_skills AS "requiredSkills", b.required_protocols AS "requiredProtocols",
  b.funding_intent_id AS "fundingTransactionIntentId", b.approval_intent_id AS "approvalTransactionIntentId",
  api_ts(b.funded_at) AS "fundedAt", b.funding_reference AS "fundingTransactionHash",
  b.claimant_workspace_id AS "claimWorkspaceId", b.claimant_agent_id AS "claimAgentId", api_ts(b.claimed_at) AS "claimedAt",
  api_ts(b.delivery_due_at) AS "deliveryDueAt", b.payout_address AS "payoutAddress",
  b.delivery, api_ts(b.submitted_at) AS "submittedAt", b.rejection_reasons AS "rejectionReasons", api_ts(b.rejected_at) AS "rejectedAt",
  (SELECT d.id FROM bounty_disputes d WHERE d.bounty_id = b.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1) AS "disputeId",
  api_ts(b.disputed_at) AS "disputedAt", api_ts(b.accepted_at) AS "acceptedAt", b.payout_intent_id AS "payoutTransactionIntentId",
  b.units_to_provider::text AS "unitsToProvider", b.units_to_client::text AS "unitsToClient", api_ts(b.settled_at) AS "settledAt",
  api_ts(b.closed_at) AS "closedAt", api_ts(b.created_at) AS "createdAt", api_ts(b.updated_at) AS "updatedAt",
  api_ts(b.created_at) AS "positionAt"`

const decodeBounty = Schema.decodeUnknown(Bounty)

const toWire = (r: Record<string, any>) => {
  const delivery = r.delivery === null ? null : { ...(typeof r.delivery === "string" ? JSON.parse(r.delivery) : r.delivery), submittedAt: r.submittedAt }
  const reasons = r.rejectionReasons === null
    ? null
    : typeof r.rejectionReasons === "string"
    ? JSON.parse(r.rejectionReasons)
    : r.rejectionReasons
  const { claimAgentId, claimWorkspaceId, claimedAt, deliveryDueAt, payoutAddress, positionAt: _p, submittedAt: _s, ...rest } = r
  return decodeBounty({
    ...rest,
    delivery,
    rejectionReasons: reasons,
    claim: claimWorkspaceId === null
      ? null
      : { workspaceId: claimWorkspaceId, agentId: claimAgentId, claimedAt, deliveryDueAt, payoutAddress }
  }).pipe(Effect.orDie)
}

/** A bounty as a command sees it: its row's facts and the caller's roles on both sides. */
export interface BountyAccess {
  readonly id: string
  readonly state: string
  readonly version: number
  readonly workspaceId: string
  readonly claimantWorkspaceId: string | null
  readonly claimantAgentId: string | null
  readonly network: string
  readonly contractAddress: string
  readonly units: bigint
  readonly token: string | null
  readonly networkId: string
  readonly payoutAddress: string | null
  readonly fundingIntentId: string | null
  readonly deadlineAt: Date | null
  readonly deliveryDueAt: Date | null
  readonly submittedAt: Date | null
  readonly rejectedAt: Date | null
  /** The caller's role in the poster's workspace, or null. */
  readonly posterRole: string | null
  /** The caller's role in the claimant's workspace, or null. */
  readonly claimantRole: string | null
}

/** The SQL of the bounties' work (see the module docs). */
export const makeWorkRepo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** One bounty in its wire shape, or none. */
  const view = (id: string) =>
    Effect.flatMap(
      sql`SELECT ${sql.literal(bountyColumns)} FROM bounties b LEFT JOIN assets a ON a.id = b.asset_id WHERE b.id = ${id}`,
      (rows) => rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.map(toWire(rows[0]), Option.some)
    ).pipe(Effect.orDie)

  /** A bounty's facts with the caller's roles (`FOR UPDATE` when `lock`), or none. */
  const access = (id: string, accountId: string | null, lock = false) =>
    Effect.map(
      sql<{
        id: string
        state: string
        version: number
        workspaceId: string
        claimantWorkspaceId: string | null
        claimantAgentId: string | null
        network: string
        contractAddress: string
        units: string
        caip19: string | null
        networkId: string
        payoutAddress: string | null
        fundingIntentId: string | null
        deadlineAt: Date | null
        deliveryDueAt: Date | null
        submittedAt: Date | null
        rejectedAt: Date | null
        posterRole: string | null
        claimantRole: string | null
      }>`SELECT b.id, b.state, b.version::float8 AS version, b.workspace_id AS "workspaceId",
          b.claimant_workspace_id AS "claimantWorkspaceId", b.claimant_agent_id AS "claimantAgentId",
          b.escrow_network AS network, b.escrow_contract_address AS "contractAddress", b.escrow_units::text AS units,
          a.caip19, a.network_id AS "networkId", b.payout_address AS "payoutAddress", b.funding_intent_id AS "fundingIntentId",
          b.deadline_at AS "deadlineAt", b.delivery_due_at AS "deliveryDueAt", b.submitted_at AS "submittedAt",
          b.rejected_at AS "rejectedAt",
          (SELECT m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id AND w.state = 'ACTIVE'
            WHERE m.workspace_id = b.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE') AS "posterRole",
          (SELECT m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id AND w.state = 'ACTIVE'
            WHERE m.workspace_id = b.claimant_workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE') AS "claimantRole"
        FROM bounties b JOIN assets a ON a.id = b.asset_id WHERE b.id = ${id}
        ${sql.unsafe(lock ? "FOR UPDATE OF b" : "")}`,
      (rows) =>
        Option.fromNullable(rows[0]).pipe(Option.map((r): BountyAccess => {
          const token = r.caip19 === null ? null : /^eip155:[0-9]+\/erc20:(0x[0-9a-fA-F]{40})$/.exec(r.caip19)?.[1] ?? null
          const { caip19: _c, units, ...rest } = r
          return { ...rest, units: BigInt(units), token }
        }))
    ).pipe(Effect.orDie)

  /** The account's role in an ACTIVE workspace it is an ACTIVE member of, or none. */
  const memberRole = (workspaceId: string, accountId: string) =>
    Effect.map(
      sql<{ role: string }>`SELECT m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id AND w.state = 'ACTIVE'
        WHERE m.workspace_id = ${workspaceId} AND m.account_id = ${accountId} AND m.state = 'ACTIVE'`,
      (rows) => Option.fromNullable(rows[0]?.role)
    ).pipe(Effect.orDie)

  /** The asset `caip19` on network `network` (CAIP-2), with the network's row id; none when it is not that network's. */
  const assetOn = (caip19: string, network: string) =>
    Effect.map(
      sql<{ assetId: string; networkId: string }>`SELECT a.id AS "assetId", n.id AS "networkId" FROM assets a
        JOIN networks n ON n.id = a.network_id
        WHERE lower(a.caip19) = ${caip19.toLowerCase()} AND (n.caip2 = ${network} OR n.key = ${network})
        ORDER BY a.id LIMIT 1`,
      (rows) => Option.fromNullable(rows[0])
    ).pipe(Effect.orDie)

  /** The latest wallet registered for `workspaceId` on network row `networkId` (optionally that address): id and address. */
  const workspaceWallet = (workspaceId: string, networkId: string, address?: string) =>
    Effect.map(
      sql<{ id: string; address: string }>`SELECT id, address FROM wallets
        WHERE workspace_id = ${workspaceId} AND network_id = ${networkId}
          ${address === undefined ? sql`` : sql`AND lower(address) = ${address.toLowerCase()}`}
        ORDER BY created_at DESC, id LIMIT 1`,
      (rows) => Option.fromNullable(rows[0])
    ).pipe(Effect.orDie)

  /** The workspace operating agent `agentId`, or none for an unknown agent. */
  const agentWorkspace = (agentId: string) =>
    Effect.map(
      sql<{ workspaceId: string | null }>`SELECT workspace_id AS "workspaceId" FROM agents WHERE id = ${agentId}`,
      (rows) => Option.fromNullable(rows[0]).pipe(Option.map((r) => r.workspaceId))
    ).pipe(Effect.orDie)

  /**
   * One page of the bounties of `workspaceId`: posted by it (`POSTED`), claimed by it
   * (`CLAIMED`), or both (null); optionally of one state; newest first, strictly after `after`.
   */
  const list = (input: {
    readonly workspaceId: string
    readonly side: "POSTED" | "CLAIMED" | null
    readonly state: string | null
    readonly after: readonly [string, string] | null
    readonly take: number
  }) =>
    Effect.gen(function*() {
      const where: Array<Statement.Fragment> = [
        input.side === "POSTED"
          ? sql`b.workspace_id = ${input.workspaceId}`
          : input.side === "CLAIMED"
          ? sql`b.claimant_workspace_id = ${input.workspaceId}`
          : sql`(b.workspace_id = ${input.workspaceId} OR b.claimant_workspace_id = ${input.workspaceId})`
      ]
      if (input.state !== null) where.push(sql`b.state = ${input.state}`)
      if (input.after !== null) where.push(sql`(b.created_at, b.id) < (${new Date(input.after[0])}::timestamptz, ${input.after[1]}::uuid)`)
      const rows = yield* sql`SELECT ${sql.literal(bountyColumns)} FROM bounties b LEFT JOIN assets a ON a.id = b.asset_id
        WHERE ${sql.and(where)} ORDER BY b.created_at DESC, b.id DESC LIMIT ${input.take}`
      return yield* Effect.forEach(rows, (r) =>
        Effect.map(toWire(r), (bounty) => ({ bounty, position: [r.positionAt as string, r.id as string] as const })))
    }).pipe(Effect.orDie)

  return { view, access, memberRole, assetOn, workspaceWallet, agentWorkspace, list } as const
})
