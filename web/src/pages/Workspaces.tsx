/**
 * My workspaces (`/workspaces`, signed in): the workspaces I am a member of (Accounts_GetMe) and a
 * form to create one (Workspaces_CreateWorkspace); a workspace's page (`/workspaces/{publicId}`)
 * shows its members and pending invitations (Workspaces_GetWorkspace), invites by email
 * (Workspaces_CreateInvitation) and manages its API keys (Accounts_ListApiKeys,
 * Accounts_CreateApiKey: a new key's secret is shown once), and, through ./WorkspaceSections.tsx,
 * registers its agents (Agents_CreateAgent, then proving an address), lists its orders and
 * entitlements and manages its webhook subscriptions (the secret shown once) and their deliveries.
 */
import { useEffect, useState } from "preact/hooks"
import { api, problemText, type Schemas } from "../api"
import { navigate } from "../router"
import { commandHeaders } from "../session"
import { Orders, RegisterAgent, Webhooks } from "./WorkspaceSections"
import { ShownOnce } from "../ShownOnce"

type Role = Schemas["CreateInvitationRequest"]["role"]

const SignInFirst = ({ next }: { readonly next: string }) => (
  <p><a href={`/sign-in?next=${encodeURIComponent(next)}`} data-route>Sign in</a> to see your workspaces.</p>
)

export const Workspaces = () => {
  const [me, setMe] = useState<Schemas["Me"] | null | undefined>(undefined)
  const [name, setName] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    void api.GET("/api/v1/me").then((r) => setMe(r.data?.data ?? null), () => setMe(null))
  }, [])
  if (me === undefined) return <p class="muted">Loading…</p>
  return (
    <div>
      <h1 tabIndex={-1}>My workspaces</h1>
      {me === null ? <SignInFirst next="/workspaces" /> : (
        <>
          {me.workspaces.length === 0 ? <p>You are not a member of any workspace yet.</p> : (
            <ul>{me.workspaces.map((w) => <li><a href={`/workspaces/${w.publicId}`} data-route>{w.name}</a> <span class="muted">({w.role})</span></li>)}</ul>
          )}
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault()
              setError(undefined)
              void api.POST("/api/v1/workspaces", { params: { header: commandHeaders() }, body: { name: name.trim() } }).then((r) =>
                r.data !== undefined ? navigate(`/workspaces/${r.data.data.publicId}`) : setError(problemText(r.error, r.response)))
            }}
          >
            <h2>Create a workspace</h2>
            <label for="workspace-name">Name</label>
            <input id="workspace-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <button type="submit">Create workspace</button>
            {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
          </form>
        </>
      )}
    </div>
  )
}

const Roles: ReadonlyArray<Role> = ["ADMIN", "EDITOR", "OPERATOR", "ANALYST", "BILLING", "VIEWER"]

export const Workspace = ({ id }: { readonly id: string }) => {
  const [workspace, setWorkspace] = useState<Schemas["Workspace"] | undefined>(undefined)
  const [keys, setKeys] = useState<ReadonlyArray<Schemas["ApiKey"]>>([])
  const [error, setError] = useState<string | undefined>(undefined)
  const [invitee, setInvitee] = useState("")
  const [role, setRole] = useState<Role>("EDITOR")
  const [keyName, setKeyName] = useState("")
  const [newKey, setNewKey] = useState<string | undefined>(undefined)
  const path = { workspacePublicId: id }
  const reload = () => {
    void api.GET("/api/v1/workspaces/{workspacePublicId}", { params: { path } }).then((r) =>
      r.data !== undefined ? setWorkspace(r.data.data) : setError(problemText(r.error, r.response)))
    void api.GET("/api/v1/workspaces/{workspacePublicId}/api-keys", { params: { path } }).then((r) => {
      if (r.data !== undefined) setKeys(r.data.data)
    })
  }
  useEffect(reload, [id])
  if (workspace === undefined) {
    return error === undefined ? <p class="muted">Loading…</p> : <div><h1 tabIndex={-1}>Workspace</h1><p role="alert" class="error">{error}</p></div>
  }
  const manages = workspace.role === "OWNER" || workspace.role === "ADMIN"
  const edits = manages || workspace.role === "EDITOR"
  return (
    <div>
      <h1 tabIndex={-1}>{workspace.name}</h1>
      <p class="muted">Your role: {workspace.role} · {workspace.state}</p>
      {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
      <section aria-labelledby="members">
        <h2 id="members">Members</h2>
        <table>
          <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th></tr></thead>
          <tbody>{workspace.members.map((m) => <tr><td>{m.displayName}</td><td>{m.email}</td><td>{m.role}</td></tr>)}</tbody>
        </table>
        {workspace.invitations.length > 0 ? (
          <>
            <h3>Invitations</h3>
            <ul>{workspace.invitations.map((i) => <li>{i.recipientEmail ?? "(link)"} as {i.role}: {i.state}</li>)}</ul>
          </>
        ) : null}
        {manages ? (
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault()
              setError(undefined)
              void api.POST("/api/v1/workspaces/{workspacePublicId}/invitations", {
                params: { path, header: commandHeaders() },
                body: { recipientEmail: invitee.trim(), role }
              }).then((r) => r.response.ok ? (setInvitee(""), reload()) : setError(problemText(r.error, r.response)))
            }}
          >
            <label for="invitee">Invite by email</label>
            <input id="invitee" type="email" required value={invitee} onInput={(e) => setInvitee(e.currentTarget.value)} />
            <label for="role">Role</label>
            <select id="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {Roles.map((r) => <option value={r}>{r}</option>)}
            </select>
            <button type="submit">Invite</button>
          </form>
        ) : null}
      </section>
      <section aria-labelledby="keys">
        <h2 id="keys">API keys</h2>
        {keys.length === 0 ? <p>No API key.</p> : (
          <ul>{keys.map((k) => <li><code>{k.prefix}…</code> {k.name} ({k.scopes.join(", ")}) {k.state}</li>)}</ul>
        )}
        {newKey !== undefined ? <ShownOnce label="Your new key" value={newKey} /> : null}
        {manages ? (
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault()
              setError(undefined)
              void api.POST("/api/v1/workspaces/{workspacePublicId}/api-keys", {
                params: { path, header: commandHeaders() },
                body: { name: keyName.trim(), scopes: ["agents:read"] }
              }).then((r) => {
                if (r.data === undefined) return setError(problemText(r.error, r.response))
                setNewKey(r.data.data.key ?? undefined)
                setKeyName("")
                reload()
              })
            }}
          >
            <label for="key-name">New key's name</label>
            <input id="key-name" required maxLength={100} value={keyName} onInput={(e) => setKeyName(e.currentTarget.value)} />
            <button type="submit">Create key</button>
          </form>
        ) : null}
      </section>
      {edits ? <RegisterAgent workspaceId={id} /> : null}
      <Orders workspaceId={id} />
      <Webhooks workspaceId={id} manages={manages} />
    </div>
  )
}
