"""The bridge's transport: pipelined batches, polling when a CPU is spare, CPU pressure.

The speed work must not change a single answer: every path (one request, a pipeline of chunks,
polling on both sides or none) is checked against the others on the same real calcs.
"""

from __future__ import annotations

import os
import signal
import threading

import pytest

from damagecalc_bridge import CalcError, DamageCalc
from damagecalc_bridge import client as client_module
from damagecalc_bridge.pressure import CpuPressure

TUSK = {"species": "Great Tusk", "level": 77, "ability": "Protosynthesis"}
GHOLDENGO = {"species": "Gholdengo", "level": 78, "ability": "Good as Gold"}
MOVES = ("Headlong Rush", "Ice Spinner", "Close Combat", "Rapid Spin", "Bullet Seed")
REQUESTS = [
    ({**TUSK, "level": level}, {**GHOLDENGO, "level": other}, move)
    for level in range(70, 90)
    for other in (70, 85)
    for move in MOVES
]  # 200 calcs: several pipelined chunks


def _set_quiet(calc: DamageCalc, quiet: bool) -> None:
    calc._pressure.quiet = lambda: quiet  # type: ignore[method-assign]


@pytest.mark.integration
def test_every_transport_path_gives_the_same_results() -> None:
    with DamageCalc(warmup=200, cache_size=0) as calc:
        _set_quiet(calc, False)  # busy machine: a batch is one request, nobody polls
        one_request = calc.damage_many(REQUESTS, ko=True)
        one_by_one = [calc.damage(*request, ko=True) for request in REQUESTS[:40]]
        _set_quiet(calc, True)  # a CPU is spare: pipelined chunks, both sides poll
        polled_single = [calc.damage(*request, ko=True) for request in REQUESTS[:40]]
        pipelined = calc.damage_many(REQUESTS, ko=True)
        assert calc.ping()
    assert len(pipelined) == len(REQUESTS) > client_module.CHUNK * client_module.DEPTH
    assert pipelined == one_request
    assert pipelined[:40] == one_by_one == polled_single
    assert all(type(r) is type(pipelined[0]) for r in one_by_one + polled_single)
    assert pipelined[0].max_damage > 0 and len(pipelined[0].rolls) == 16


@pytest.mark.integration
def test_a_round_trip_in_the_middle_of_a_streamed_batch() -> None:
    # A cosmetic forme and a terastallized Ogerpon first seen mid-batch: translating them asks
    # Node (resolve) while chunks of the same batch are in flight.
    vivillon = {"species": "Vivillon-Sun", "level": 84}
    ogerpon = {"species": "Ogerpon-Wellspring", "level": 80, "teraType": "Water"}
    ogerpon_tera = {**ogerpon, "terastallized": True}
    requests = (
        REQUESTS[:100]
        + [(TUSK, vivillon, "Ice Spinner"), (ogerpon_tera, GHOLDENGO, "Ivy Cudgel")]
        + REQUESTS[100:]
    )
    with DamageCalc(warmup=100, cache_size=0) as quiet, DamageCalc(warmup=100) as busy:
        _set_quiet(quiet, True)
        _set_quiet(busy, False)
        streamed = quiet.damage_many(requests, ko=True)
        assert quiet.restarts == 0
        assert quiet.ping()
        expected = busy.damage_many(requests, ko=True)
        plain_ogerpon = busy.damage(ogerpon, GHOLDENGO, "Ivy Cudgel")
    assert streamed == expected
    assert streamed[101].max_damage != plain_ogerpon.max_damage  # the Tera forme was used


@pytest.mark.integration
def test_bad_input_in_the_middle_of_a_streamed_batch_leaves_it_in_step() -> None:
    # chunks are in flight when request 150 fails to translate (an unknown move: no round trip
    # to Node on the way): they are read and dropped
    bad = [*REQUESTS[:150], (TUSK, GHOLDENGO, "Not A Move"), *REQUESTS[150:]]
    with DamageCalc(warmup=100, cache_size=0) as calc:
        _set_quiet(calc, True)
        good = calc.damage_many(REQUESTS)
        with pytest.raises(CalcError, match="Not A Move"):
            calc.damage_many(bad)
        assert calc._pipeline is None
        assert calc.damage_many(REQUESTS) == good
        assert calc.damage(*REQUESTS[7]) == good[7]
        assert calc.restarts == 0


@pytest.mark.integration
def test_a_failing_chunk_leaves_the_pipeline_in_step() -> None:
    with DamageCalc(warmup=100, cache_size=0) as calc:
        _set_quiet(calc, True)
        good = calc.damage_many(REQUESTS)
        a = calc._mon_handle(TUSK, "attacker", None)
        d = calc._mon_handle(GHOLDENGO, "defender", None)
        v = calc._move_handle("Headlong Rush")
        keys = [(a, d, v, 0, 0)] * 100 + [(a, d, 10**9, 0, 0)] + [(a, d, v, 0, 0)] * 100
        # the bad move handle sits in the fourth of 7 chunks, with the next ones in flight
        with pytest.raises(CalcError, match="not defined"):
            calc._compute(keys, ko=False, describe=False)
        assert calc.damage_many(REQUESTS) == good
        assert calc.restarts == 0  # drained, not restarted


@pytest.mark.integration
def test_node_killed_during_a_pipelined_batch_is_retried() -> None:
    # 1,000 distinct calcs with KO chances and descriptions: well over 30 ms of Node time
    requests = [
        (a, {**d, "hpPercent": hp}, m) for hp in (20, 40, 60, 80, 100) for a, d, m in REQUESTS
    ]
    with DamageCalc(warmup=100, cache_size=0) as calc:
        _set_quiet(calc, True)
        expected = calc.damage_many(REQUESTS)
        old_pid = calc.pid
        killer = threading.Timer(0.03, os.kill, (old_pid, signal.SIGKILL))
        killer.start()
        results = calc.damage_many(requests, ko=True, describe=True)
        killer.join()
        assert calc.pid != old_pid and calc.restarts == 1
        assert len(results) == len(requests)
        assert [r.rolls for r in results[-len(REQUESTS) :]] == [r.rolls for r in expected]


def test_cpu_pressure_from_psi(tmp_path) -> None:
    psi = tmp_path / "cpu"

    def write(total_us: int) -> None:
        psi.write_text(
            f"some avg10=1.00 avg60=1.00 avg300=1.00 total={total_us}\n"
            "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        )

    pressure = CpuPressure(threshold=0.2, interval=0.0, path=str(psi))
    write(1_000_000)
    assert not pressure.quiet()  # nothing to compare with yet
    write(1_000_000)
    assert pressure.quiet()  # no task waited since
    write(1_000_000 + 10_000_000)  # 10 s of waiting within a fraction of a second
    assert not pressure.quiet()


def test_cpu_pressure_without_psi_uses_the_load_average(tmp_path) -> None:
    pressure = CpuPressure(interval=0.0, path=str(tmp_path / "missing"))
    assert isinstance(pressure.quiet(), bool)


@pytest.mark.integration
def test_single_call_fast_path_errors_and_restart() -> None:
    with DamageCalc(warmup=100, cache_size=0) as calc:
        good = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
        a = calc._mon_handle(TUSK, "attacker", None)
        d = calc._mon_handle(GHOLDENGO, "defender", None)
        calc._known.add(10**9)  # pretend Node knows a handle it was never sent
        with pytest.raises(CalcError, match="not defined"):
            calc._compute_one((a, d, 10**9, 0, 0), ko=False, describe=False)
        assert calc.damage(TUSK, GHOLDENGO, "Headlong Rush") == good
        os.kill(calc.pid, signal.SIGKILL)
        assert calc.damage(TUSK, GHOLDENGO, "Headlong Rush") == good
        assert calc.restarts == 1
