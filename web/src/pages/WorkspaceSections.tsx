/**
 * Sections of a workspace's page (`/workspaces/{publicId}`, web/src/pages/Workspaces.tsx):
 *
 * - {@link RegisterAgent}: registers an agent operated by the workspace (Agents_CreateAgent:
 *   name, slug, tagline; OWNER, ADMIN, EDITOR), then links to its page and to proving its EVM
 *   address (`/agents/{publicId}/prove`);
 * - {@link Orders}: the workspace's orders (Commerce_ListCommerceOrders, those bought by it) with
 *   their state and total, and its entitlements (Commerce_ListEntitlements);
 * - {@link Webhooks}: its webhook subscriptions (Workspaces_ListWebhookSubscriptions), a form to
 *   subscribe an https URL to event kinds (Workspaces_CreateWebhookSubscription: the signing secret
 *   shown once), delete at the version read (Workspaces_DeleteWebhookSubscription), and a
 *   subscription's recent deliveries (Workspaces_ListWebhookDeliveries).
 */
import { useEffect, useState } from "preact/hooks"
import { api, formatUnits, problemText, type Schemas } from "../api"
import { commandHeaders } from "../session"
import { ShownOnce } from "../ShownOnce"

type Subscription = Schemas["WebhookSubscription"]

/** Registers an agent of the workspace; on success, links to it and to proving its address. */
export const RegisterAgent = ({ workspaceId }: { readonly workspaceId: string }) => {
  const [name, setName] = useState("")
  const [slug, setSlug] = useState("")
  const [tagline, setTagline] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [created, setCreated] = useState<Schemas["AgentProfile"] | undefined>(undefined)
  return (
    <section aria-labelledby="agents">
      <h2 id="agents">Agents</h2>
      {created !== undefined ? (
        <p role="status">
          Registered <a href={`/agents/${created.publicId}`} data-route>{created.name}</a> ({created.verificationState}).{" "}
          <a href={`/agents/${created.publicId}/prove`} data-route>Prove its EVM address</a>
        </p>
      ) : null}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault()
          setError(undefined)
          void api.POST("/api/v1/agents", {
            params: { header: commandHeaders() },
            body: { workspaceId, name: name.trim(), canonicalSlug: slug.trim(), ...(tagline.trim() !== "" ? { tagline: tagline.trim() } : {}) }
          }).then((r) => {
            if (r.data === undefined) return setError(problemText(r.error, r.response))
            setCreated(r.data.data)
            setName("")
            setSlug("")
            setTagline("")
          })
        }}
      >
        <h3>Register an agent</h3>
        <label for="agent-name">Agent's name</label>
        <input id="agent-name" required maxLength={160} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="agent-slug">Slug (a-z, 0-9 and single hyphens)</label>
        <input id="agent-slug" required minLength={3} maxLength={64} pattern="[a-z][a-z0-9]*(-[a-z0-9]+)*" value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
        <label for="agent-tagline">Tagline</label>
        <input id="agent-tagline" maxLength={200} value={tagline} onInput={(e) => setTagline(e.currentTarget.value)} />
        <button type="submit">Register agent</button>
        {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
      </form>
    </section>
  )
}

/** The workspace's orders and entitlements. */
export const Orders = ({ workspaceId }: { readonly workspaceId: string }) => {
  const [orders, setOrders] = useState<ReadonlyArray<Schemas["CommerceOrder"]> | undefined>(undefined)
  const [entitlements, setEntitlements] = useState<ReadonlyArray<Schemas["WorkspaceEntitlement"]> | undefined>(undefined)
  useEffect(() => {
    void api.GET("/api/v1/orders").then((r) => setOrders((r.data?.data ?? []).filter((o) => o.workspacePublicId === workspaceId)))
    void api.GET("/api/v1/workspaces/{workspaceId}/entitlements", { params: { path: { workspaceId }, query: { limit: 50 } } })
      .then((r) => setEntitlements(r.data?.data ?? []))
  }, [workspaceId])
  return (
    <section aria-labelledby="orders">
      <h2 id="orders">Orders and entitlements</h2>
      {orders === undefined ? <p class="muted">Loading…</p> : orders.length === 0 ? <p>No order yet.</p> : (
        <table>
          <caption>Orders</caption>
          <thead><tr><th scope="col">Order</th><th scope="col">Product</th><th scope="col">Total</th><th scope="col">State</th><th scope="col">Placed</th></tr></thead>
          <tbody>
            {orders.map((o) => (
              <tr>
                <td>{o.orderNumber}</td>
                <td>{o.productName}</td>
                <td>{formatUnits(o.totalUnits, o.decimals)} {o.symbol ?? "units"}</td>
                <td>{o.state}</td>
                <td>{new Date(o.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {entitlements === undefined ? null : entitlements.length === 0 ? <p>No entitlement.</p> : (
        <table>
          <caption>Entitlements</caption>
          <thead><tr><th scope="col">Code</th><th scope="col">State</th><th scope="col">Until</th><th scope="col">Runs used</th></tr></thead>
          <tbody>
            {entitlements.map((e) => (
              <tr>
                <td>{e.code}</td>
                <td>{e.state}</td>
                <td>{e.effectiveUntil === null ? "no end" : new Date(e.effectiveUntil).toLocaleDateString()}</td>
                <td>{e.runsUsed}{e.runQuota !== null ? ` of ${e.runQuota}` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** A subscription's recent deliveries (the newest 20). */
const Deliveries = ({ workspaceId, subscriptionId }: { readonly workspaceId: string; readonly subscriptionId: string }) => {
  const [deliveries, setDeliveries] = useState<ReadonlyArray<Schemas["WebhookDelivery"]> | undefined>(undefined)
  useEffect(() => {
    void api.GET("/api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}/deliveries", {
      params: { path: { workspacePublicId: workspaceId, subscriptionId }, query: { limit: 20 } }
    }).then((r) => setDeliveries(r.data?.data ?? []))
  }, [subscriptionId])
  if (deliveries === undefined) return <p class="muted">Loading…</p>
  if (deliveries.length === 0) return <p class="muted">No delivery yet.</p>
  return (
    <ul class="deliveries">
      {deliveries.map((d) => (
        <li>{d.eventKind}: {d.state}, {d.attempts} attempt{d.attempts === 1 ? "" : "s"}{d.lastStatus !== null ? `, last answer ${d.lastStatus}` : ""}</li>
      ))}
    </ul>
  )
}

/** The workspace's webhook subscriptions; `manages`: the caller may create and delete them. */
export const Webhooks = ({ workspaceId, manages }: { readonly workspaceId: string; readonly manages: boolean }) => {
  const [subscriptions, setSubscriptions] = useState<ReadonlyArray<Subscription>>([])
  const [url, setUrl] = useState("")
  const [kinds, setKinds] = useState("order.*, entitlement.*")
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const [open, setOpen] = useState<string | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const path = { workspacePublicId: workspaceId }
  const reload = () => {
    void api.GET("/api/v1/workspaces/{workspacePublicId}/webhooks", { params: { path } }).then((r) => {
      if (r.data !== undefined) setSubscriptions(r.data.data)
    })
  }
  useEffect(reload, [workspaceId])
  const remove = (s: Subscription) => {
    setError(undefined)
    void api.DELETE("/api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}", {
      params: { path: { ...path, subscriptionId: s.id }, header: commandHeaders() },
      body: { expectedVersion: s.version }
    }).then((r) => {
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      if (open === s.id) setOpen(undefined)
      reload()
    })
  }
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">Webhooks</h2>
      {subscriptions.length === 0 ? <p>No webhook subscription.</p> : (
        <ul class="subscriptions">
          {subscriptions.map((s) => (
            <li>
              <code>{s.url}</code> {s.eventKinds.join(", ")} · {s.state}{s.disabledReason !== null ? ` (${s.disabledReason})` : ""}{" "}
              <button type="button" class="link" aria-expanded={open === s.id} onClick={() => setOpen(open === s.id ? undefined : s.id)}>
                Deliveries<span class="visually-hidden"> to {s.url}</span>
              </button>
              {manages ? (
                <>
                  {" "}<button type="button" class="link" onClick={() => remove(s)}>Delete<span class="visually-hidden"> the subscription of {s.url}</span></button>
                </>
              ) : null}
              {open === s.id ? <Deliveries workspaceId={workspaceId} subscriptionId={s.id} /> : null}
            </li>
          ))}
        </ul>
      )}
      {secret !== undefined ? <ShownOnce label="The subscription's signing secret (Standard Webhooks)" value={secret} /> : null}
      {manages ? (
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault()
            setError(undefined)
            const eventKinds = kinds.split(",").map((k) => k.trim()).filter((k) => k !== "")
            void api.POST("/api/v1/workspaces/{workspacePublicId}/webhooks", {
              params: { path, header: commandHeaders() },
              body: { url: url.trim(), eventKinds }
            }).then((r) => {
              if (r.data === undefined) return setError(problemText(r.error, r.response))
              setSecret(r.data.data.secret)
              setUrl("")
              reload()
            })
          }}
        >
          <h3>Subscribe an endpoint</h3>
          <label for="hook-url">Endpoint URL (https)</label>
          <input id="hook-url" type="url" required maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          <label for="hook-kinds">Event kinds, comma-separated (order.*, payment.*, entitlement.*, run.*, bounty.*, import.*, invitation.*)</label>
          <input id="hook-kinds" required value={kinds} onInput={(e) => setKinds(e.currentTarget.value)} />
          <button type="submit">Subscribe</button>
        </form>
      ) : null}
      {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
    </section>
  )
}
