"""Seed 000's algorithm G (Table I) played on small thread graphs worked by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.analysis import algorithm_g as G
from interp.errors import InterpError

MS = 1e-3


def _loop_of(body: list[G.Event], est: int, before: float = 0.0) -> list[G.Event]:
    """start --before--> loop_entry, body, loop_exit(est) → end (the entry is index 1)."""
    return [G.Event("start", then=before), G.Event("loop_entry"), *body,
            G.Event("loop_exit", entry=1, est=est), G.Event("end")]


def _send_then_receive(send_segment: float, recv_segment: float) -> G.Graph:
    """Thread 0: a segment, then a send to thread 1; thread 1: a segment, then its receive
    (tt^e = 1 ms); twice (est 2). The loop entry's segment is the one before the event."""
    t0 = _loop_of([G.Event("send", to=1, tag=7)], 2)
    t0[1] = G.Event("loop_entry", then=send_segment)
    t1 = _loop_of([G.Event("recv", frm=0, rtag=7, tt=1 * MS)], 2)
    t1[1] = G.Event("loop_entry", then=recv_segment)
    return G.Graph([t0, t1])


def test_a_receive_after_its_send_costs_only_its_own_time():
    # thread 0: segment 2 ms, send; thread 1: segment 5 ms, receive (tt^e = 1 ms); twice.
    r = G.play(_send_then_receive(2 * MS, 5 * MS))
    # thread 0 sends at 2 and 4 ms and ends at 4 ms.
    # thread 1: receive ready at 5 ms, message there since 2: done max(5, 2) + 1 = 6 ms;
    # again 6 + 5 = 11, message since 4: done 11 + 1 = 12 ms
    assert r.finish == [pytest.approx(4 * MS), pytest.approx(12 * MS)]
    assert r.seconds == pytest.approx(12 * MS)


def test_a_receive_before_its_send_waits_for_it():
    # the other way round: thread 0 computes 5 ms before each send, thread 1 2 ms before each
    # receive (1 ms)
    r = G.play(_send_then_receive(5 * MS, 2 * MS))
    # sends at 5 and 10 ms. Receive 1: ready at 2, waits for 5: done 5 + 1 = 6 ms.
    # Receive 2: ready 6 + 2 = 8, waits for 10: done 11 ms. Per iteration a sum of the
    # largest segment, max(5, 2 + 1) = 5 ms, would say 10 ms: the wait is G's
    assert r.finish == [pytest.approx(10 * MS), pytest.approx(11 * MS)]


def test_a_collective_ends_at_its_last_member_plus_its_own_time():
    # three threads compute 1, 4, 2 ms, meet in a barrier (tt^e 0.5 ms), compute 3, 1, 1 ms
    def thread(a, b):
        return [G.Event("start", then=a * MS),
                G.Event("collective", name="barrier", members=(0, 1, 2), tt=0.5 * MS,
                        then=b * MS), G.Event("end")]

    r = G.play(G.Graph([thread(1, 3), thread(4, 1), thread(2, 1)]))
    # the barrier ends at max(1, 4, 2) + 0.5 = 4.5 ms on each; ends 7.5, 5.5, 5.5 ms
    assert r.finish == [pytest.approx(7.5 * MS), pytest.approx(5.5 * MS),
                        pytest.approx(5.5 * MS)]
    assert r.seconds == pytest.approx(7.5 * MS)


def test_the_loop_exit_re_enters_est_times_in_all():
    # est = 3: the body (1 ms) runs three times, as θ(e) (2.1) counts: 3 ms
    t = _loop_of([], 3)
    t[1] = G.Event("loop_entry", then=1 * MS)
    r = G.play(G.Graph([t]))
    assert r.seconds == pytest.approx(3 * MS)
    # Θ (2.2): start 1 + (entry, exit) 3 each + end 1 = 8 events processed
    assert r.processed == G.theta(G.Graph([t])) == 8


def test_a_nested_loop_resets_its_count_for_the_next_outer_iteration():
    # outer est 2 around inner est 3 around 1 ms: 6 ms; Θ = start + outer entry 2 +
    # inner entry 6 + inner exit 6 + outer exit 2 + end = 18
    t = [G.Event("start"), G.Event("loop_entry"), G.Event("loop_entry", then=1 * MS),
         G.Event("loop_exit", entry=2, est=3), G.Event("loop_exit", entry=1, est=2),
         G.Event("end")]
    r = G.play(G.Graph([t]))
    assert r.seconds == pytest.approx(6 * MS)
    assert r.processed == G.theta(G.Graph([t])) == 18


def test_sendrecv_in_a_ring_sends_before_it_waits():
    # two threads each sendrecv to the other after 1 ms (0) and 3 ms (1), tt^e 1 ms: both
    # messages leave before either waits. Thread 0: max(1, 3) + 1 = 4 ms; thread 1:
    # max(3, 1) + 1 = 4 ms
    def thread(me, other, a):
        return [G.Event("start", then=a * MS),
                G.Event("sendrecv", to=other, tag=1, frm=other, rtag=1, tt=1 * MS),
                G.Event("end")]

    assert G.play(G.Graph([thread(0, 1, 1), thread(1, 0, 3)])).finish == [
        pytest.approx(4 * MS), pytest.approx(4 * MS)]


def test_proc_null_partners_neither_send_nor_wait():
    t = [G.Event("start", then=1 * MS),
         G.Event("sendrecv", to=G.PROC_NULL, frm=G.PROC_NULL, tt=0.5 * MS), G.Event("end")]
    assert G.play(G.Graph([t])).seconds == pytest.approx(1.5 * MS)


def test_irecv_waits_at_its_wait():
    # thread 0 posts an irecv at 0, computes 1 ms, waits (tt^e of the receive 0.5 ms);
    # thread 1 sends at 4 ms: the wait ends at max(1, 4) + 0.5 = 4.5 ms
    t0 = [G.Event("start"), G.Event("irecv", frm=1, rtag=3, tt=0.5 * MS, then=1 * MS),
          G.Event("wait"), G.Event("end")]
    t1 = [G.Event("start", then=4 * MS), G.Event("send", to=0, tag=3), G.Event("end")]
    assert G.play(G.Graph([t0, t1])).finish[0] == pytest.approx(4.5 * MS)


def _wildcard_graph() -> G.Graph:
    # threads 1 and 2 both send to 0 at 1 ms; 2 sends again at 10 ms. Thread 0 receives from
    # any, then from 2, then from any (tt^e 1 ms each)
    t0 = [G.Event("start"), G.Event("recv", tt=1 * MS), G.Event("recv", frm=2, tt=1 * MS),
          G.Event("recv", tt=1 * MS), G.Event("end")]
    t1 = [G.Event("start", then=1 * MS), G.Event("send", to=0), G.Event("end")]
    t2 = [G.Event("start", then=1 * MS), G.Event("send", to=0, then=9 * MS),
          G.Event("send", to=0), G.Event("end")]
    return G.Graph([t0, t1, t2])


def test_the_random_policy_decides_which_simultaneous_message_a_wildcard_takes():
    # Thread 1's message first: 1+1 = 2, then 2's first (there since 1) 2+1 = 3, then 2's
    # second at 10: 11 ms. Thread 2's first: 2, then 2's second at 10: 11, then 1's: 12 ms
    values = {round(G.play(_wildcard_graph(), seed).seconds / MS, 9) for seed in range(40)}
    assert values == {11.0, 12.0}
    # the two sends at 1 ms were a pick among ties
    assert G.play(_wildcard_graph(), 0).picks_tied >= 1
    assert G.play(_wildcard_graph(), 5).seconds == G.play(_wildcard_graph(), 5).seconds


def test_a_receive_no_one_sends_to_is_a_deadlock():
    t = [G.Event("start"), G.Event("recv", frm=1, name="line 9"), G.Event("end")]
    with pytest.raises(InterpError) as err:
        G.play(G.Graph([t, [G.Event("start"), G.Event("end")]]))
    assert "deadlock" in str(err.value) and "line 9" in str(err.value)


def test_collectives_of_different_kinds_at_one_instance_are_an_error():
    a = [G.Event("start"), G.Event("collective", name="bcast", members=(0, 1)), G.Event("end")]
    b = [G.Event("start"), G.Event("collective", name="reduce", members=(0, 1)), G.Event("end")]
    with pytest.raises(InterpError, match="bcast"):
        G.play(G.Graph([a, b]))


def test_a_graph_without_start_and_end_is_an_error():
    with pytest.raises(InterpError, match="start to an end"):
        G.play(G.Graph([[G.Event("send", to=0)]]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(0, 10), min_size=1, max_size=5), min_size=2, max_size=4),
       st.integers(1, 4), st.integers(0, 1000))
def test_barrier_separated_phases_sum_their_slowest_thread(phases, est, seed):
    # every thread: loop est times over (segment, barrier) phases: G = est · Σ_phase max_t.
    # Threads × phases from a rectangle: thread t's k-th segment is phases[t][k % len]
    n, k = len(phases), max(len(p) for p in phases)
    seg = [[phases[t][j % len(phases[t])] * MS for j in range(k)] for t in range(n)]
    threads = []
    for t in range(n):
        body = []
        for j in range(k):
            body.append(G.Event("collective", name="barrier", members=tuple(range(n))))
        events = _loop_of(body, est)
        events[1] = G.Event("loop_entry", then=seg[t][0])
        for j in range(k - 1):
            events[2 + j] = G.Event("collective", name="barrier", members=tuple(range(n)),
                                    then=seg[t][j + 1])
        threads.append(events)
    expected = est * sum(max(seg[t][j] for t in range(n)) for j in range(k))
    assert G.play(G.Graph(threads), seed).seconds == pytest.approx(expected, abs=1e-12)
