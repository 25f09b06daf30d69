/**
 * SQL of wallet registration: workspaces' roles, networks by CAIP-2 id, used sign-in nonces and
 * the wallets rows, read in the wire shape of `Wallet` (src/wallets/Schemas.ts).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Wallet } from "../Schemas.js"

/** Keyset position of Wallets_ListWallets: newest first by (createdAt, id). */
export const WalletListPosition = Schema.Struct({ createdAt: Schema.String, id: Schema.String })
export type WalletListPosition = typeof WalletListPosition.Type

const walletColumns = (sql: SqlClient.SqlClient) =>
  sql`w.id AS "walletPublicId", w.workspace_id AS "workspaceId", n.caip2 AS network,
      n.caip2 || ':' || w.address AS account, w.address, w.proof_method AS "proofMethod",
      api_ts(w.proven_at) AS "provenAt", api_ts(w.created_at) AS "createdAt"`

const WalletRow = Schema.Struct({ wallet: Wallet, position: WalletListPosition })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The caller's ACTIVE role in the workspace: none when the workspace does not exist, null when not a member. */
  const workspaceRole = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
    Result: Schema.Struct({ role: Schema.NullOr(Schema.String), state: Schema.String }),
    execute: ({ accountId, workspaceId }) =>
      sql`SELECT m.role, w.state FROM workspaces w
          LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          WHERE w.id = ${workspaceId}`
  })

  /** The id of the network row of a CAIP-2 id, or none. */
  const networkId = (caip2: string) =>
    sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${caip2}`.pipe(
      Effect.map((rows) => Option.fromNullable(rows[0]?.id))
    )

  /** Records a nonce as used by an address; false when it was used before (a concurrent use waits and loses). */
  const useNonce = (r: { address: string; nonce: string; at: Date; expiresAt: Date }) =>
    sql`INSERT INTO wallet_siwe_nonces (address, nonce, used_at, expires_at)
        VALUES (${r.address.toLowerCase()}, ${r.nonce}, ${r.at}, ${r.expiresAt})
        ON CONFLICT DO NOTHING RETURNING nonce`.pipe(Effect.map((rows) => rows.length === 1))

  /** Inserts a proven wallet; false when the address is already a wallet on the network. */
  const insertWallet = (w: {
    id: string
    workspaceId: string
    accountId: string
    networkId: string
    address: string
    at: Date
  }) =>
    sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at, workspace_id, proven_at, proof_method)
        SELECT ${w.id}, ${w.accountId}, ${w.networkId}, ${w.address}, ${w.at}, ${w.workspaceId}, ${w.at}, 'SIWE'
        WHERE NOT EXISTS (SELECT 1 FROM wallets WHERE network_id = ${w.networkId} AND lower(address) = lower(${w.address}))
        ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

  /** One wallet in its wire shape. */
  const findWallet = SqlSchema.findOne({
    Request: Schema.String,
    Result: Wallet,
    execute: (id) => sql`SELECT ${walletColumns(sql)} FROM wallets w JOIN networks n ON n.id = w.network_id WHERE w.id = ${id}`
  })

  /** Up to `take` wallets of the workspace after `after`, newest first. */
  const listWallets = (workspaceId: string, after: WalletListPosition | undefined, take: number) =>
    SqlSchema.findAll({
      Request: Schema.Void,
      Result: WalletRow,
      execute: () =>
        sql`SELECT json_build_object(
                'walletPublicId', w.id, 'workspaceId', w.workspace_id, 'network', n.caip2,
                'account', n.caip2 || ':' || w.address, 'address', w.address, 'proofMethod', w.proof_method,
                'provenAt', api_ts(w.proven_at), 'createdAt', api_ts(w.created_at)) AS wallet,
              json_build_object('createdAt', to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                'id', w.id) AS position
            FROM wallets w JOIN networks n ON n.id = w.network_id
            WHERE w.workspace_id = ${workspaceId}
              ${after === undefined ? sql`` : sql`AND (w.created_at, w.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`}
            ORDER BY w.created_at DESC, w.id DESC
            LIMIT ${take}`
    })(undefined)

  return { workspaceRole, networkId, useNonce, insertWallet, findWallet, listWallets } as const
})

/** SQL of wallet registration. */
export class WalletRegistrationRepo extends Effect.Service<WalletRegistrationRepo>()("agent-directory/WalletRegistrationRepo", {
  effect: make
}) {}
