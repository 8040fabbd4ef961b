// ralph-hooks for OpenCode: the same guard and the same loop as for Claude
// Code. OpenCode has no command hooks, so this plugin runs the ralph-hooks
// binaries itself, with one JSON event on stdin each (the "opencode"
// dialect of internal/event/opencode.go):
//
//   tool.execute.before  pre-tool-call: a denial throws, so OpenCode refuses
//                        the call and the model reads the reason
//   tool.execute.after   post-tool-call: a finding (or a warning the guard
//                        gave before the call) is added to the tool's output
//   session.idle         stop: while a loop runs, the reason is sent as the
//                        session's next prompt; the message for the human is
//                        shown as a toast
//
// `ralph install --agent opencode` writes this file, with BIN and TIMEOUT
// set, to .opencode/plugins/ (or ~/.config/opencode/plugins/ with --scope
// user); `ralph uninstall --agent opencode` removes it. A hook that fails
// to run is reported and lets the call through, as Claude Code does with a
// failing hook; exit status 2 blocks with stderr as the reason.
//
// OpenCode ends `opencode run` at the session's first idle, so a loop goes
// on only where the session lives on: the TUI, or `opencode serve` (and
// `opencode run --attach`).

import { spawn } from "node:child_process"
import { homedir } from "node:os"
import { join } from "node:path"

const BIN = join(homedir(), ".local", "lib", "ralph-hooks", "bin") // ralph-hooks: bin
const TIMEOUT = { pre: 10, post: 30, stop: 360 } // ralph-hooks: timeouts in seconds

type Answer = { decision?: string; reason?: string; context?: string; systemMessage?: string }
type Result = { code: number | null; out: string; err: string }

// run runs one binary with the event on stdin, killing it after seconds.
function run(binary: string, event: object, seconds: number, cwd: string): Promise<Result> {
  return new Promise((resolve) => {
    let out = ""
    let err = ""
    let done = false
    const finish = (code: number | null, why = "") => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({ code, out, err: err + why })
    }
    const child = spawn(join(BIN, binary), ["--agent", "opencode"], { cwd, stdio: ["pipe", "pipe", "pipe"] })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      finish(null, `${binary} timed out after ${seconds} s`)
    }, seconds * 1000)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", (e) => finish(null, String(e)))
    child.on("close", (code) => finish(code))
    child.stdin.on("error", () => {}) // a hook that exits without reading
    child.stdin.end(JSON.stringify(event))
  })
}

export const RalphHooks = async ({ client, directory }: { client: any; directory: string }) => {
  // report says what went wrong in OpenCode's log; it never throws.
  const report = async (message: string) => {
    try {
      await client.app.log({ body: { service: "ralph-hooks", level: "warn", message } })
    } catch {
      console.error(`ralph-hooks: ${message}`)
    }
  }
  const toast = async (message: string) => {
    try {
      await client.tui.showToast({ body: { title: "ralph-hooks", message, variant: "info" } })
    } catch {
      // no TUI to show it in
    }
  }
  // hook runs a binary and reads its answer: null when it failed (it is
  // reported, and nothing is blocked), a block when it exited 2.
  const hook = async (binary: string, event: object, seconds: number): Promise<Answer | null> => {
    const r = await run(binary, event, seconds, directory)
    if (r.code === 2) return { decision: "block", reason: r.err.trim() || `${binary} blocked` }
    if (r.code !== 0) {
      await report(`${binary} failed (exit ${r.code}): ${r.err.trim()}`)
      return null
    }
    const text = r.out.trim()
    if (text === "") return {}
    try {
      return JSON.parse(text) as Answer
    } catch {
      await report(`${binary} answered no JSON: ${text.slice(0, 200)}`)
      return null
    }
  }

  const warnings = new Map<string, string>() // call id → what the guard said before the call
  const continued = new Set<string>() // sessions the stop hook sent back to work

  return {
    "tool.execute.before": async (input: any, output: any) => {
      const a = await hook(
        "pre-tool-call",
        {
          hook_event_name: "tool.execute.before",
          session_id: input.sessionID,
          cwd: directory,
          tool: input.tool,
          call_id: input.callID,
          args: output.args ?? {},
        },
        TIMEOUT.pre,
      )
      if (a?.decision === "deny" || a?.decision === "block") throw new Error(a.reason || "Blocked by ralph-hooks")
      if (a?.context) warnings.set(input.callID, a.context)
    },

    "tool.execute.after": async (input: any, output: any) => {
      const warning = warnings.get(input.callID)
      warnings.delete(input.callID)
      const text = typeof output.output === "string" ? output.output : ""
      const exit = output.metadata?.exit
      const a = await hook(
        "post-tool-call",
        {
          hook_event_name: "tool.execute.after",
          session_id: input.sessionID,
          cwd: directory,
          tool: input.tool,
          call_id: input.callID,
          args: input.args ?? {},
          output: text,
          ...(typeof exit === "number" ? { exit } : {}),
        },
        TIMEOUT.post,
      )
      const notes = [warning, a?.decision === "block" ? a.reason : undefined, a?.context].filter((n) => n)
      if (notes.length > 0) output.output = [text, ...notes].join("\n\n")
    },

    event: async ({ event }: { event: any }) => {
      if (event.type !== "session.idle") return
      const id = event.properties?.sessionID
      if (!id) return
      let parent = ""
      let last = ""
      try {
        const [info, messages] = await Promise.all([
          client.session.get({ path: { id } }),
          client.session.messages({ path: { id } }),
        ])
        parent = info.data?.parentID ?? ""
        const reply = (messages.data ?? []).filter((m: any) => m.info?.role === "assistant").pop()
        last = (reply?.parts ?? [])
          .filter((p: any) => p.type === "text" && !p.synthetic)
          .map((p: any) => p.text)
          .join("\n")
      } catch (e) {
        await report(`reading session ${id}: ${e}`)
      }
      const a = await hook(
        "stop",
        {
          hook_event_name: "session.idle",
          session_id: id,
          cwd: directory,
          ...(parent ? { parent_id: parent } : {}),
          stop_hook_active: continued.has(id),
          last_assistant_message: last,
        },
        TIMEOUT.stop,
      )
      if (a?.systemMessage) await toast(a.systemMessage)
      if (a?.decision !== "block" || !a.reason) {
        continued.delete(id)
        return
      }
      continued.add(id)
      // Not awaited: the prompt runs the session's next turn, whose own
      // idle comes back here.
      client.session
        .prompt({ path: { id }, body: { parts: [{ type: "text", text: a.reason }] } })
        .catch((e: unknown) => report(`sending session ${id} back to work: ${e}`))
    },
  }
}
