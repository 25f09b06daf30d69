/**
 * Token operations carried out on chain (spec §2.13, §3; docs/token-operations.md):
 *
 * - `token_operations.requested_by_account_id` / `approved_by_account_id`: the administrator who
 *   created the operation and the one who approved it (APPROVAL_REQUIRED needs another one);
 *   `updated_at`: the last move. Rows written before have no requester.
 * - `assets.caip19`: an asset's CAIP-19 id (`eip155:8453/erc20:0x…`, the contract in lower case),
 *   unique; the treasury token's row is created on first use.
 * - `journal_entries` + `journal_entry_lines`: the double-entry ledger of reconciled operations,
 *   one entry per operation (unique), with the network, asset and transaction hash that settled
 *   it; lines debit or credit an account (text, e.g. `treasury:eip155:8453:0x…`) by units, and
 *   an entry's debits equal its credits. (`token_operations.journal_entry_id` names the entry; the
 *   entry's unique `token_operation_id` is the one foreign key between the two.)
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE token_operations ADD COLUMN requested_by_account_id uuid REFERENCES accounts(id);
ALTER TABLE token_operations ADD COLUMN approved_by_account_id uuid REFERENCES accounts(id);
ALTER TABLE token_operations ADD COLUMN updated_at timestamptz;
CREATE INDEX token_operations_intent_idx ON token_operations (transaction_intent_id) WHERE transaction_intent_id IS NOT NULL;

ALTER TABLE assets ADD COLUMN caip19 text UNIQUE CHECK (caip19 ~ '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}$');

CREATE TABLE journal_entries (
  id uuid PRIMARY KEY,
  token_operation_id uuid NOT NULL UNIQUE REFERENCES token_operations(id),
  network text NOT NULL,
  asset_id uuid NOT NULL REFERENCES assets(id),
  transaction_hash text NOT NULL CHECK (transaction_hash ~ '^0x[0-9a-f]{64}$'),
  memo text NOT NULL,
  posted_at timestamptz NOT NULL
);

CREATE TABLE journal_entry_lines (
  journal_entry_id uuid NOT NULL REFERENCES journal_entries(id),
  line_no smallint NOT NULL CHECK (line_no > 0),
  account text NOT NULL CHECK (length(account) BETWEEN 1 AND 300),
  side text NOT NULL CHECK (side IN ('DEBIT', 'CREDIT')),
  units numeric(78,0) NOT NULL CHECK (units >= 0),
  PRIMARY KEY (journal_entry_id, line_no)
);
`)
})
