#!/usr/bin/env python3
"""The upgrade test's audit (deploy/upgrade/test.sh): what deploy/upgrade/load.py saw against what PostgreSQL recorded.

Waits until every accepted job is recorded in an ended state (up to --wait seconds, and no longer than --stall
seconds without one more), then checks:

- **jobs**: every accepted job recorded exactly once, succeeded, with its result (an echo's token, a generation's
  text, a video's artifact); none lost (accepted, not recorded), none doubled (a row no accepted submission names, two
  rows of one token, or a replayed `Idempotency-Key` answered with another job), none `dead` or failed; every
  submission answered (a 202, or a 429 for a metered one), a replay with the same job, a read-back 200;
- **answers**: no 5xx but a 503 with `Retry-After`, and every 429 with `Retry-After`;
- **events**: every follower reached the job's end, read each event once, in order (the ids only grow), exactly the
  events the whole stream holds when read again from the start, and for a generation the text the result holds;
- **quotas**, per identity and quota day, from the policy's numbers: admitted units never past the tier's daily limit,
  no `daily_quota_exhausted` while the request still fitted, no two admissions of one device within its cooldown and no
  `device_cooldown` without an admission of that device within it, no other refusal (the tiers used have caps and
  velocities the load never reaches); and the quota ledger charges each admitted job its cost once.

Prints the counts and every finding (the first ones of each kind), and exits 1 on any failure.
Python 3.11, the standard library only; PostgreSQL is read with psql.
"""

import argparse
import collections
import json
import subprocess
import sys
import time

TERMINAL = {"succeeded", "failed", "dead", "cancelled"}


def psql(args, sql):
    out = subprocess.run([args.psql, args.database_url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c",
                          f"SELECT row_to_json(t) FROM ({sql}) t"],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def event_key(event_id):
    ms, _, seq = (event_id or "").partition("-")
    try:
        return (int(ms), int(seq or 0))
    except ValueError:
        return None


class Audit:
    def __init__(self, args, load, policies):
        self.args = args
        self.load = load
        self.policies = policies
        self.findings = collections.defaultdict(list)
        self.counts = collections.OrderedDict()

    def fail(self, kind, message):
        self.findings[kind].append(message)

    # ---- PostgreSQL ----------------------------------------------------------------------------------------------

    def wait_recorded(self, accepted):
        tenants = ",".join(f"'{t}'" for t in self.args.tenant)
        deadline = time.monotonic() + self.args.wait
        last_print = 0
        best, best_at = None, time.monotonic()
        while True:
            rows = psql(self.args, f"SELECT id, state FROM jobs WHERE tenant_id IN ({tenants})")
            ended = {r["id"] for r in rows if r["state"] in TERMINAL}
            waiting = accepted - ended
            if best is None or len(waiting) < best:
                best, best_at = len(waiting), time.monotonic()
            if not waiting or time.monotonic() > deadline:
                return waiting
            if time.monotonic() - best_at > self.args.stall:
                print(f"audit: {len(waiting)} accepted jobs still unrecorded, none recorded in the last "
                      f"{self.args.stall:.0f} s: auditing without them", flush=True)
                return waiting
            if time.monotonic() - last_print > 10:
                last_print = time.monotonic()
                print(f"audit: waiting for {len(waiting)} of {len(accepted)} accepted jobs to end and be recorded",
                      flush=True)
            time.sleep(2)

    # ---- checks --------------------------------------------------------------------------------------------------

    def run(self):
        subs = self.load["submissions"]
        followers = self.load["followers"]
        accepted = {s["job_id"] for s in subs if s["status"] == 202 and s["job_id"]}
        waiting = self.wait_recorded(accepted)
        time.sleep(1)  # the ledger rows go in the same batch as the records; one more second for the last ones
        tenants = ",".join(f"'{t}'" for t in self.args.tenant)
        jobs = psql(self.args, "SELECT id, tenant_id, identity, kind, state, attempt, max_attempts, result, "
                               "error_code, error_message, input->>'message' AS message, input, finished_at "
                               f"FROM jobs WHERE tenant_id IN ({tenants})")
        artifacts = psql(self.args, f"SELECT job_id, name, size_bytes FROM artifacts WHERE tenant_id IN ({tenants})")
        ledger = psql(self.args, "SELECT job_id, subject, day, quota_class, units, outcome FROM quota_ledger "
                                 f"WHERE tenant_id IN ({tenants})")
        self.check_answers(subs)
        self.check_jobs(subs, jobs, artifacts, waiting)
        self.check_events(followers, jobs)
        self.check_quotas(subs, ledger)
        self.report()
        return 0 if not any(self.findings.values()) else 1

    def check_answers(self, subs):
        c = self.counts
        ex = self.load["exchanges"]
        c["requests"] = len(ex)
        statuses = collections.Counter(e[3] for e in ex)
        c["answers by status"] = dict(sorted(((str(k), v) for k, v in statuses.items()), key=lambda kv: kv[0]))
        fives = [e for e in ex if isinstance(e[3], int) and e[3] >= 500]
        ok503 = [e for e in fives if e[3] == 503 and e[4]]
        c["5xx"] = len(fives)
        c["5xx allowed (503 with Retry-After)"] = len(ok503)
        for e in fives:
            if not (e[3] == 503 and e[4]):
                self.fail("5xx", f"{e[2]} answered {e[3]}{'' if e[4] else ' without Retry-After'} "
                                 f"at {time.strftime('%H:%M:%S', time.localtime(e[0]))} in phase {e[1]}")
        lost = [e for e in ex if isinstance(e[3], str) and e[3].startswith("conn:")]
        c["lost answers (asked again)"] = len(lost)
        for e in ex:
            if isinstance(e[3], str) and e[3].startswith("crash:"):
                self.fail("load", f"the load generator failed: {e[3]}")
        if self.load.get("leftover_tasks"):
            self.fail("load", f"{self.load['leftover_tasks']} load tasks had not ended when the load stopped")
        for e in ex:
            if e[3] == 429 and not e[4]:
                self.fail("answers", f"a 429 without Retry-After in phase {e[1]}")

    def check_jobs(self, subs, jobs, artifacts, waiting):
        c = self.counts
        c["submitted"] = len(subs)
        answered = [s for s in subs if isinstance(s["status"], int) and s["status"] < 500]
        c["answered"] = len(answered)
        for s in subs:
            if s not in answered:
                self.fail("answers", f"submission {s['key']} ({s['kind']}, {s['identity']}) never answered: "
                                     f"last {s['status']}, {len(s['lost'])} lost answers")
            elif s["status"] == 429 and s["group"] == "metered":
                pass
            elif s["status"] != 202:
                self.fail("answers", f"submission {s['key']} ({s['kind']}) answered {s['status']} {s.get('code')}")
        acc = [s for s in subs if s["status"] == 202 and s["job_id"]]
        ids = collections.Counter(s["job_id"] for s in acc)
        c["accepted"] = len(ids)
        c["refused (429)"] = sum(1 for s in subs if s["status"] == 429)
        doubled_answers = 0
        for jid, n in ids.items():
            if n > 1:
                doubled_answers += n - 1
                self.fail("doubled", f"job {jid} answered to {n} different submissions")
        for s in acc:
            if "replay" in s:
                r = s["replay"]
                if r["status"] not in (200, 202):
                    self.fail("answers", f"Idempotency-Key {s['key']} replayed: {r['status']} {r.get('code')} "
                                         f"instead of job {s['job_id']}")
                elif r["job_id"] != s["job_id"]:
                    doubled_answers += 1
                    self.fail("doubled", f"Idempotency-Key {s['key']} replayed: job {r['job_id']} instead of "
                                         f"{s['job_id']}")
            if "get" in s and s["get"]["status"] != 200:
                self.fail("answers", f"GET /v1/jobs/{s['job_id']} answered {s['get']['status']}")
        c["replays (same key again)"] = sum(1 for s in acc if "replay" in s)

        by_id = collections.defaultdict(list)
        for j in jobs:
            by_id[j["id"]].append(j)
        arts = collections.defaultdict(list)
        for a in artifacts:
            arts[a["job_id"]].append(a)
        recorded = [jid for jid in ids if jid in by_id]
        c["recorded"] = len(recorded)
        lost = [jid for jid in ids if jid not in by_id]
        c["lost"] = len(lost)
        for jid in lost:
            s = next(s for s in acc if s["job_id"] == jid)
            self.fail("lost", f"job {jid} ({s['kind']}, {s['identity']}, accepted in phase {s['phase']}) has no record")
        unended = [jid for jid in waiting if jid in by_id]
        for jid in unended:
            self.fail("lost", f"job {jid} recorded but not ended ({by_id[jid][0]['state']})")
        extra = [jid for jid in by_id if jid not in ids]
        doubled_rows = sum(len(v) - 1 for v in by_id.values() if len(v) > 1)
        tokens = collections.Counter(j["message"] for j in jobs if j["message"])
        dup_tokens = {t: n for t, n in tokens.items() if n > 1}
        c["doubled"] = doubled_answers + len(extra) + doubled_rows + sum(n - 1 for n in dup_tokens.values())
        for jid in extra:
            j = by_id[jid][0]
            self.fail("doubled", f"job {jid} ({j['kind']}, {j['identity']}, {j['state']}) recorded but accepted by no "
                                 "submission the load made")
        for jid, v in by_id.items():
            if len(v) > 1:
                self.fail("doubled", f"job {jid} recorded {len(v)} times")
        for t, n in dup_tokens.items():
            self.fail("doubled", f"token {t} recorded in {n} jobs")

        states = collections.Counter(by_id[jid][0]["state"] for jid in recorded)
        c["recorded by state"] = dict(states)
        c["dead"] = states.get("dead", 0)
        c["jobs run more than once (attempt > 1)"] = sum(1 for jid in recorded if (by_id[jid][0]["attempt"] or 0) > 1)
        for s in acc:
            if s["job_id"] not in by_id:
                continue
            j = by_id[s["job_id"]][0]
            what = f"job {j['id']} ({j['kind']}, accepted in phase {s['phase']})"
            if j["state"] != "succeeded":
                self.fail("dead" if j["state"] == "dead" else "failed",
                          f"{what} ended {j['state']}: {j['error_code']} {j['error_message']}")
                continue
            result = j["result"] or {}
            if j["kind"] != s["kind"]:
                self.fail("results", f"{what} recorded as kind {j['kind']}")
            if s["kind"] == "diag.echo" and (result.get("echo") or {}).get("message") != s["token"]:
                self.fail("results", f"{what}: result {json.dumps(result)[:120]} does not echo {s['token']}")
            elif s["kind"] == "diag.generate" and not result.get("text"):
                self.fail("results", f"{what}: no text in its result")
            elif s["kind"] == "video.chat_export":
                names = {a["name"]: a["size_bytes"] for a in arts.get(j["id"], [])}
                if result.get("artifact") != "chat.mp4" or not names.get("chat.mp4"):
                    self.fail("results", f"{what}: no chat.mp4 artifact recorded ({names}, result {result})")
            if (s.get("tenant") and j["tenant_id"] != s["tenant"]) or j["identity"] != s["identity"]:
                self.fail("results", f"{what}: recorded for {j['tenant_id']}/{j['identity']}, "
                                     f"submitted by {s.get('tenant')}/{s['identity']}")

    def check_events(self, followers, jobs):
        c = self.counts
        by_id = {j["id"]: j for j in jobs}
        c["jobs followed"] = len(followers)
        c["events read"] = sum(len(f["events"]) for f in followers)
        c["stream connections"] = sum(f["connections"] for f in followers)
        c["streams resumed with Last-Event-ID"] = sum(f["resumes"] for f in followers)
        c["streams ended by a node before the job"] = sum(f["clean_ends"] for f in followers)
        c["streams cut"] = sum(len(f["cuts"]) for f in followers)
        complete = 0
        for f in followers:
            what = f"follower of {f['job_id']} ({f['kind']})"
            evs = f["events"]
            bad = False
            if f["terminal"] is None:
                self.fail("events", f"{what} never read the job's end ({len(evs)} events, {f['connections']} "
                                    f"connections, answers {f['answers']}, cuts {f['cuts'][:3]})")
                continue
            seen = set()
            prev = None
            for i, (eid, _, _) in enumerate(evs):
                k = event_key(eid)
                if k is None:
                    self.fail("events", f"{what}: event {i} has no id ({eid!r})")
                    bad = True
                    break
                if eid in seen:
                    self.fail("events", f"{what}: event {eid} read twice")
                    bad = True
                    break
                if prev is not None and k <= prev:
                    self.fail("events", f"{what}: event {eid} after {evs[i - 1][0]}, out of order")
                    bad = True
                    break
                seen.add(eid)
                prev = k
            last = evs[-1] if evs else None
            if not last or last[1] != "status" or json.loads(last[2]).get("state") not in TERMINAL:
                self.fail("events", f"{what}: the last event read is not the job's end: {last}")
                bad = True
            replay = f.get("replay")
            if replay is None:
                self.fail("events", f"{what}: its whole stream could not be read again after the end")
                bad = True
            elif [tuple(e) for e in replay] != [tuple(e) for e in evs]:
                followed = {e[0] for e in evs}
                whole = {e[0] for e in replay}
                self.fail("events", f"{what}: read {len(evs)} events, the stream holds {len(replay)}: "
                                    f"{len(whole - followed)} missed, {len(followed - whole)} not in the stream, "
                                    f"first missed {sorted(whole - followed, key=event_key)[:3]}")
                bad = True
            j = by_id.get(f["job_id"])
            if j and f["terminal"] != j["state"]:
                self.fail("events", f"{what}: the stream ended {f['terminal']}, the record says {j['state']}")
                bad = True
            if j and f["kind"] == "diag.generate" and j["state"] == "succeeded":
                # The text of the last attempt's deltas is the result's.
                start = max((i for i, e in enumerate(evs) if e[1] == "status"
                             and json.loads(e[2]).get("state") == "running"), default=-1)
                text = "".join(json.loads(e[2]).get("text", "") for e in evs[start + 1:] if e[1] == "delta")
                if text != (j["result"] or {}).get("text"):
                    self.fail("events", f"{what}: the streamed text ({len(text)} characters) is not the result's "
                                        f"({len((j['result'] or {}).get('text') or '')})")
                    bad = True
            complete += not bad
        c["followers that read every event once, in order, to the end"] = complete

    def check_quotas(self, subs, ledger):
        c = self.counts
        policy = self.policies[self.args.metered_tenant]
        metered = [s for s in subs if s["group"] == "metered" and s["status"] in (202, 429)]
        c["quota decisions"] = len(metered)
        c["quota decisions by answer"] = dict(collections.Counter(
            "admitted" if s["status"] == 202 else s.get("code") for s in metered))
        problems = 0

        def qfail(message):
            nonlocal problems
            problems += 1
            self.fail("quota", message)

        by_ident = collections.defaultdict(list)
        for s in metered:
            if s["status"] == 202:
                day = (s.get("quota") or {}).get("reset")
            else:
                day = (s.get("problem") or {}).get("reset_at")
            by_ident[(s["identity"], s["tier"], day)].append(s)
        admitted_units = {}
        for (ident, tier, day), decisions in by_ident.items():
            t = policy["tiers"][tier]
            admitted = {}
            for s in decisions:
                if s["status"] == 202:
                    admitted[s["job_id"]] = s
            units = collections.Counter()
            for s in admitted.values():
                units[policy["kinds"][s["kind"]]["class"]] += policy["kinds"][s["kind"]]["cost"]
            admitted_units[ident] = sum(units.values())
            for qclass, used in units.items():
                limit = t["daily"].get(qclass)
                if isinstance(limit, int) and used > limit:
                    qfail(f"{ident} ({tier}) admitted {used} {qclass} units on the day ending {day}: "
                          f"past its limit {limit}")
            for s in decisions:
                if s["status"] != 429:
                    continue
                qclass = policy["kinds"][s["kind"]]["class"]
                cost = policy["kinds"][s["kind"]]["cost"]
                limit = t["daily"].get(qclass)
                p = s.get("problem") or {}
                if s.get("code") == "daily_quota_exhausted":
                    if not isinstance(limit, int) or units[qclass] + cost <= limit:
                        qfail(f"{ident} ({tier}) refused daily_quota_exhausted for a cost of {cost} with "
                              f"{units[qclass]} of {limit} {qclass} units admitted all day (answer {p})")
                    elif p.get("limit") != limit:
                        qfail(f"{ident} ({tier}) refused with limit {p.get('limit')}; the policy says {limit}")
                elif s.get("code") == "device_cooldown":
                    cooldown = (t.get("device_cooldown_seconds") or {}).get(qclass)
                    device_admits = [a for a in admitted.values() if a.get("device") == s.get("device")]
                    if not cooldown or not any(a["t_sent"] < s["t_recv"] and s["t_sent"] - a["t_recv"] < cooldown
                                               for a in device_admits):
                        qfail(f"{ident} ({tier}) device {s.get('device')} refused device_cooldown without an "
                              f"admission of that device within {cooldown} s")
                else:
                    qfail(f"{ident} ({tier}) refused {s.get('code')}: none of this load's tiers reaches that ({p})")
            devices = collections.defaultdict(list)
            for s in admitted.values():
                if s.get("device"):
                    devices[s["device"]].append(s)
            for device, admits in devices.items():
                cooldown = (t.get("device_cooldown_seconds") or {}).get("text")
                admits.sort(key=lambda a: a["t_sent"])
                for a, b in zip(admits, admits[1:]):
                    if cooldown and b["t_recv"] - a["t_sent"] < cooldown:
                        qfail(f"{ident} ({tier}) device {device} admitted twice within its {cooldown} s cooldown")
            if tier == "cooldown":
                for device in {s.get("device") for s in decisions}:
                    if device not in devices:
                        qfail(f"{ident} ({tier}) device {device}: every submission refused, none admitted")

        # The ledger: each admitted metered job charged its cost once (the load's tiers refund nothing).
        rows = collections.defaultdict(list)
        for r in ledger:
            rows[r["job_id"]].append(r)
        admitted_jobs = {s["job_id"]: s for s in metered if s["status"] == 202}
        charged = 0
        for jid, s in admitted_jobs.items():
            r = rows.get(jid)
            cost = policy["kinds"][s["kind"]]["cost"]
            if not r:
                qfail(f"job {jid} of {s['identity']} admitted, not in the quota ledger")
            elif len(r) > 1 or r[0]["units"] != cost or r[0]["subject"] != s["identity"]:
                qfail(f"job {jid} of {s['identity']} (cost {cost}) in the ledger as {r}")
            else:
                charged += r[0]["units"]
        for jid in rows:
            if jid not in admitted_jobs:
                qfail(f"the quota ledger charges job {jid}, which the load was not admitted")
        c["identities metered"] = len({k[0] for k in by_ident})
        c["units admitted"] = sum(policy["kinds"][s["kind"]]["cost"] for s in admitted_jobs.values())
        c["units in the ledger"] = charged
        c["quota audit"] = "exact" if problems == 0 else f"{problems} problems"

    def report(self):
        print()
        print("=== upgrade test audit ===")
        width = max(len(k) for k in self.counts)
        for k, v in self.counts.items():
            print(f"  {k:<{width}}  {v}")
        phases = collections.OrderedDict()
        for e in self.load["exchanges"]:
            p = phases.setdefault(e[1], collections.Counter())
            p["requests"] += 1
            p["5xx"] += isinstance(e[3], int) and e[3] >= 500
            p["lost"] += isinstance(e[3], str)
        for s in self.load["submissions"]:
            if s["status"] == 202:
                phases.setdefault(s.get("phase"), collections.Counter())["accepted"] += 1
        print("  by phase:")
        for name, p in phases.items():
            print(f"    {name:<24} {p['requests']:>6} requests {p['accepted']:>6} accepted "
                  f"{p['lost']:>4} lost answers {p['5xx']:>4} 5xx")
        c = self.counts
        print(f"summary: submitted {c['submitted']}, accepted {c['accepted']}, recorded {c['recorded']}, lost "
              f"{c['lost']}, doubled {c['doubled']}, dead {c['dead']}, 5xx {c['5xx']} "
              f"({c['5xx allowed (503 with Retry-After)']} of them 503 with Retry-After), events read "
              f"{c['events read']} by {c['jobs followed']} followers ({c['streams resumed with Last-Event-ID']} "
              f"resumed), quota decisions {c['quota decisions']}: {c['quota audit']}")
        failures = {k: v for k, v in self.findings.items() if v}
        if not failures:
            print("AUDIT PASSED")
            return
        print()
        print("AUDIT FAILED:")
        for kind, messages in failures.items():
            print(f"  {kind}: {len(messages)}")
            for m in messages[: self.args.show]:
                print(f"    - {m}")
            if len(messages) > self.args.show:
                print(f"    … and {len(messages) - self.args.show} more")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--load", required=True, help="the JSON load.py wrote")
    p.add_argument("--policies", required=True, help="the policy file the fleet ran with")
    p.add_argument("--psql", default="psql")
    p.add_argument("--database-url", required=True)
    p.add_argument("--tenant", action="append", default=None, help="the tenants the load used (repeat)")
    p.add_argument("--metered-tenant", default="loadtest")
    p.add_argument("--wait", type=float, default=300, help="seconds to wait for accepted jobs to be recorded")
    p.add_argument("--stall", type=float, default=120, help="…but no longer than this without one more recorded")
    p.add_argument("--show", type=int, default=12, help="findings shown of each kind")
    args = p.parse_args()
    args.tenant = args.tenant or ["upgrade", "loadtest"]
    with open(args.load) as f:
        load = json.load(f)
    with open(args.policies) as f:
        policies = json.load(f)
    sys.exit(Audit(args, load, policies).run())


if __name__ == "__main__":
    main()
