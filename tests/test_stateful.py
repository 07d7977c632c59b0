"""Live invariants: several runs of one problem, interleaved at random (next, count, stop and
resume, budgets, close, batches), with the links checked against the options applied after every
step, and every answer against the set-based reference."""
import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, initialize, invariant, rule
from naive import Counts, algorithm_x
from support import small_problems

from dlx import Batch, ExactCover


class Runs(RuleBasedStateMachine):
    runs = Bundle("runs")

    @initialize(problem=small_problems())
    def build(self, problem):
        primary, secondary, options = problem
        options = options or [[primary[0]]]
        self.counts = Counts()
        self.expected = list(algorithm_x(options, primary, secondary, self.counts))
        self.problem = ExactCover(options, primary=primary, secondary=secondary)
        self.batch = Batch(self.problem, [len(options)])
        self.open = []

    @rule(target=runs, budget=st.none() | st.integers(0, 20))
    def start(self, budget):
        run = self.problem.search(max_nodes=budget)
        record = {"run": run, "done": 0}      # solutions yielded or counted so far
        self.open.append(record)
        return record

    @rule(record=runs)
    def next_solution(self, record):
        solution = next(record["run"], None)
        if solution is not None:
            assert solution == self.expected[record["done"]]     # the reference's order
            record["done"] += 1
        self.check_answers(record)

    @rule(record=runs)
    def count(self, record):
        record["done"] += record["run"].count()
        self.check_answers(record)

    @rule(record=runs, budget=st.none() | st.integers(0, 20), stop=st.booleans())
    def resume(self, record, budget, stop):
        run = record["run"]
        if run._closed:
            return
        if stop:
            run.stop()
            before, found = run.stats, len(run._found)
            assert run.count() == found                      # only what was found before
            assert run.status in ("stopped", "complete", "max_nodes")
            assert run.stats.nodes == before.nodes           # the stop is seen before any node
            record["done"] += found
        run.resume(max_nodes=budget)

    @rule(record=consumes(runs))
    def close(self, record):
        record["run"].close()
        self.open.remove(record)
        assert record["run"].applied() == []

    @rule(value=st.integers(0, 3), limit=st.integers(1, 5))
    def batch_solve(self, value, limit):
        value = min(value, self.problem.n_options)
        result = self.batch.solve(np.array([[value]], np.uint8), limit)
        if value == 0:
            assert result.counts[0] == min(limit, len(self.expected))
            assert result.statuses()[0] == ("solved" if self.expected else "no solution")
            if self.expected:
                assert self.batch.groups.option_group[list(self.expected[0])].min() == 0

    def check_answers(self, record):
        run = record["run"]
        done = record["done"]
        assert done == run.stats.solutions - len(run._found)
        if run.stats.complete:
            assert done + len(run._found) == len(self.expected)
            assert (run.stats.nodes, run.stats.updates) == (self.counts.nodes, self.counts.updates)

    @invariant()
    def links_hold_exactly_the_applied_options(self):
        if not hasattr(self, "problem"):
            return
        self.problem.check()
        for record in self.open:
            record["run"].check()

    def teardown(self):
        for record in getattr(self, "open", []):
            record["run"].close()
        if hasattr(self, "problem"):
            self.problem.check()


TestRuns = Runs.TestCase
TestRuns.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)
