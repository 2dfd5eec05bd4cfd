"""What an LLM agent said, for the Replay Viewer's Agent panel (no JAX, no pygame).

Replays may carry `decisions` (evaluation/replay.py): records of host Systems such as
policies/llm.py, each for one slot at one state tick (or a study game's human decision
time, evaluation/study.py), with the fallback's reason and, when the
game kept prompts, the reply text. The panel shows them only where the submitted orders show
(the Oracle, the agent's own view and its team's view): a reply is as private as an order.
"""

REPLY_CHARS = 400  # a long reply (reasoning) is cut; the whole text stays in the file


def decision_lines(decisions, state_tick: int, slot: int) -> list[str]:
    """Lines about `slot`'s recorded decision at state tick `state_tick`, or [] without one."""
    found = [d for d in decisions or () if d.get("tick") == state_tick and d.get("slot") == slot]
    if not found:
        return []
    record = found[-1]
    if "decision_s" in record:  # a human's decision time (evaluation/study.py)
        return [f"Human decision: {float(record['decision_s']):.1f} s"]
    lines = []
    reply = " ".join(str(record.get("reply", "")).split())
    if "reply" in record:
        shown = reply[:REPLY_CHARS] + ("..." if len(reply) > REPLY_CHARS else "")
        lines.append(f"LLM reply: {shown or '(empty)'}")
    if record.get("status") == "fallback":
        lines.append(f"LLM fallback (no-op): {record.get('reason', '')}")
    calls, retries = record.get("calls"), record.get("retries")
    if calls is not None:
        lines.append(f"LLM calls {calls}, retries {retries}, {record.get('latency_s', 0):.2f} s")
    return lines


def study_lines(study: dict | None) -> list[str]:
    """A study replay's record (header "study", evaluation/study.py) in two lines: who played
    under which condition, and the questionnaire's answers (or that it was skipped)."""
    if not study:
        return []
    head = f"study: participant {study['participant']}, {study['condition']} the AI"
    answers = study.get("questionnaire")
    if not answers:
        return [head, "questionnaire: skipped"]
    partner = ", ".join(f"{k} {answers[k]}" for k in ("fluency", "trust", "predictability"))
    return [head, f"questionnaire (1-7): {partner}   raw NASA-TLX {study['tlx_raw']:.1f}"]
