/**
 * A conversation with an agent (`/agents/{publicId}/conversation`, signed in): the first message
 * opens a CHAT conversation (Runtime_CreateConversation); each message (Runtime_SendMessage)
 * starts a run whose events stream over Server-Sent Events (Runtime_StreamRunEvents through an
 * `EventSource`): the answer grows with each `message.delta`; a tool call waiting for a person
 * shows Approve and Deny (Runtime_DecideToolApproval at the run's latest version).
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { api, problemText } from "../api"
import { commandHeaders, useMe } from "../session"

interface Turn {
  readonly role: "user" | "assistant"
  readonly text: string
}

interface PendingCall {
  readonly toolCallId: string
  readonly stableName: string
}

interface Live {
  readonly runId: string
  readonly state: string
  readonly version: number
  readonly answer: string
  readonly pending: ReadonlyArray<PendingCall>
  readonly decided: ReadonlyArray<string>
}

const Finished = ["SUCCEEDED", "FAILED", "CANCELLED", "TIMED_OUT"]

export const Conversation = ({ id }: { readonly id: string }) => {
  const me = useMe()
  const [agentName, setAgentName] = useState<string | undefined>(undefined)
  const [conversationId, setConversationId] = useState<string | undefined>(undefined)
  const [turns, setTurns] = useState<ReadonlyArray<Turn>>([])
  const [live, setLive] = useState<Live | undefined>(undefined)
  const [text, setText] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const source = useRef<EventSource | undefined>(undefined)

  useEffect(() => {
    void api.GET("/api/v1/agents/{entityPublicId}", { params: { path: { entityPublicId: id } } }).then((r) => {
      if (r.data !== undefined) setAgentName(r.data.data.name)
    })
    return () => source.current?.close()
  }, [id])

  const follow = (runId: string, version: number) => {
    source.current?.close()
    let current: Live = { runId, state: "QUEUED", version, answer: "", pending: [], decided: [] }
    setLive(current)
    const events = new EventSource(`/api/v1/runs/${runId}/events`)
    source.current = events
    const update = (next: Live) => {
      current = next
      setLive(next)
    }
    events.addEventListener("run.state", (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { state: string; version: number }
      update({ ...current, state: data.state, version: data.version })
      if (Finished.includes(data.state)) {
        events.close()
        setTurns((t) => [...t, { role: "assistant", text: current.answer || `(the run ended ${data.state})` }])
        setLive(undefined)
      }
    })
    events.addEventListener("message.delta", (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { delta: string }
      update({ ...current, answer: current.answer + data.delta })
    })
    events.addEventListener("tool_call", (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as PendingCall & { approvalState: string }
      const others = current.pending.filter((p) => p.toolCallId !== data.toolCallId)
      update({ ...current, pending: data.approvalState === "PENDING" && !current.decided.includes(data.toolCallId) ? [...others, data] : others })
    })
  }

  const send = async () => {
    setError(undefined)
    let conversation = conversationId
    if (conversation === undefined) {
      const created = await api.POST("/api/v1/agents/{entityPublicId}/conversations", {
        params: { path: { entityPublicId: id }, header: commandHeaders() },
        body: { kind: "CHAT", title: null }
      })
      if (created.data === undefined) return setError(problemText(created.error, created.response))
      conversation = created.data.data.id
      setConversationId(conversation)
    }
    const content = text.trim()
    const sent = await api.POST("/api/v1/conversations/{conversationId}/messages", {
      params: { path: { conversationId: conversation }, header: commandHeaders() },
      body: { content }
    })
    if (sent.data === undefined) return setError(problemText(sent.error, sent.response))
    setTurns((t) => [...t, { role: "user", text: content }])
    setText("")
    follow(sent.data.data.run.id, sent.data.data.run.version)
  }

  const decide = async (call: PendingCall, decision: "APPROVE" | "DENY") => {
    if (live === undefined) return
    const r = await api.POST("/api/v1/runs/{runId}/approvals", {
      params: { path: { runId: live.runId }, header: commandHeaders() },
      body: { toolCallId: call.toolCallId, decision, expectedVersion: live.version }
    })
    if (r.data === undefined) return setError(problemText(r.error, r.response))
    setLive({ ...live, version: r.data.data.run.version, pending: live.pending.filter((p) => p.toolCallId !== call.toolCallId), decided: [...live.decided, call.toolCallId] })
  }

  if (me === undefined) return <p class="muted">Loading…</p>
  if (me === null) {
    return (
      <div>
        <h1 tabIndex={-1}>Talk to an agent</h1>
        <p><a href={`/sign-in?next=${encodeURIComponent(`/agents/${id}/conversation`)}`} data-route>Sign in</a> to talk to this agent.</p>
      </div>
    )
  }
  return (
    <div class="conversation">
      <h1 tabIndex={-1}>Talk to {agentName ?? "the agent"}</h1>
      <div role="log" aria-live="polite" aria-label="Conversation">
      <ol class="turns">
        {turns.map((t) => <li class={`turn ${t.role}`}><span class="who">{t.role === "user" ? "You" : agentName ?? "Agent"}</span> {t.text}</li>)}
        {live !== undefined ? (
          <li class="turn assistant" aria-busy="true">
            <span class="who">{agentName ?? "Agent"}</span> {live.answer || <span class="muted">({live.state.toLowerCase().replace(/_/g, " ")})</span>}
          </li>
        ) : null}
      </ol>
      </div>
      {live?.pending.map((call) => (
        <div class="approval" role="group" aria-label={`Tool call ${call.stableName}`}>
          <p>The agent wants to call <code>{call.stableName}</code>.</p>
          <button type="button" onClick={() => void decide(call, "APPROVE")}>Approve</button>
          <button type="button" onClick={() => void decide(call, "DENY")}>Deny</button>
        </div>
      ))}
      {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
      <form
        class="compose"
        onSubmit={(event) => {
          event.preventDefault()
          if (text.trim() !== "" && live === undefined) void send()
        }}
      >
        <label for="message">Message</label>
        <textarea id="message" name="message" rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" disabled={live !== undefined}>Send</button>
      </form>
    </div>
  )
}
