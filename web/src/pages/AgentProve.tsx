/**
 * Prove an agent's EVM address (`/agents/{publicId}/prove`, signed in; an OWNER, ADMIN or EDITOR
 * of the workspace operating it): the browser's wallet (web/src/wallet.ts) shares its account and
 * network, the service issues a challenge for that address (Agents_CreateIdentityChallenge: EVM,
 * ADDRESS, the network as CAIP-2 `eip155:<chainId>`), the wallet signs its message
 * (`personal_sign`, EIP-191), and the signature proves it (Agents_ProveIdentity): the locator shown
 * as proven with the agent's verification state. A wallet that is missing or refuses is said so.
 */
import { useEffect, useState } from "preact/hooks"
import { type AgentProfile, api, problemText, type Schemas } from "../api"
import { commandHeaders, useMe } from "../session"
import { chainId, connect, personalSign, WalletError } from "../wallet"

type Proven = Schemas["ProvenIdentity"]

export const AgentProve = ({ id }: { readonly id: string }) => {
  const me = useMe()
  const [agent, setAgent] = useState<AgentProfile | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [proven, setProven] = useState<Proven | undefined>(undefined)

  useEffect(() => {
    void api.GET("/api/v1/agents/{entityPublicId}", { params: { path: { entityPublicId: id } } }).then((r) =>
      r.data !== undefined ? setAgent(r.data.data) : setError(problemText(r.error, r.response)))
  }, [id])
  useEffect(() => {
    if (agent !== undefined) document.title = `Prove an address of ${agent.name} · Agent Directory`
  }, [agent])

  const prove = async () => {
    setStatus("Asking your wallet for its account…")
    const address = await connect()
    const network = `eip155:${await chainId()}`
    setStatus(`Asking the directory for a challenge for ${address} on ${network}…`)
    const challenge = await api.POST("/api/v1/agents/{entityPublicId}/identity-challenges", {
      params: { path: { entityPublicId: id }, header: commandHeaders() },
      body: { networkFamily: "EVM", network, locatorKind: "ADDRESS", nativeId: address }
    })
    if (challenge.data === undefined) throw new WalletError(problemText(challenge.error, challenge.response))
    setStatus("Sign the challenge in your wallet…")
    const signature = await personalSign(challenge.data.data.message, address)
    setStatus("Checking the signature…")
    const result = await api.POST("/api/v1/agents/{entityPublicId}/identities", {
      params: { path: { entityPublicId: id }, header: commandHeaders() },
      body: { challengeId: challenge.data.data.challengeId, signature }
    })
    if (result.data === undefined) throw new WalletError(problemText(result.error, result.response))
    setProven(result.data.data)
    setStatus(undefined)
  }

  if (me === null) {
    return (
      <div>
        <h1 tabIndex={-1}>Prove an address</h1>
        <p><a href={`/sign-in?next=${encodeURIComponent(`/agents/${id}/prove`)}`} data-route>Sign in</a> to prove an address of this agent.</p>
      </div>
    )
  }
  return (
    <div class="narrow">
      <h1 tabIndex={-1}>Prove an address{agent !== undefined ? ` of ${agent.name}` : ""}</h1>
      <p>
        Your wallet signs a one-time challenge from the directory (nothing is sent on chain and nothing is spent);
        the signature proves that the agent's operator controls the address.
        {agent !== undefined ? <> Back to <a href={`/agents/${id}`} data-route>{agent.name}</a>.</> : null}
      </p>
      {proven !== undefined ? (
        <div role="status" class="proven">
          <p><strong>Proven:</strong> <code>{proven.nativeId}</code> on {proven.caip2 ?? proven.network ?? proven.networkFamily} ({proven.proofMethod})</p>
          <p>The agent's verification: <strong>{proven.verificationState}</strong></p>
        </div>
      ) : (
        <button
          type="button"
          disabled={busy || agent === undefined}
          onClick={() => {
            setError(undefined)
            setBusy(true)
            void prove().catch((e: unknown) => {
              setStatus(undefined)
              setError(e instanceof Error ? e.message : String(e))
            }).finally(() => setBusy(false))
          }}
        >
          Prove with my wallet
        </button>
      )}
      {status !== undefined ? <p role="status" class="muted">{status}</p> : null}
      {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
    </div>
  )
}
