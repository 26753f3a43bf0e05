#!/usr/bin/env python3
"""KTAP and JUnit output of run, nightly, merge and report, parsed.

Proves that --ktap and --junit describe the results file they come
from: a KTAP parser that applies kunit.py's rules (KTAP header, optional
'# Subtest:' line, plan, numbered results in order, the subtest's result
line named as its header, '# SKIP', diagnostics) and the JUnit XML
schema Jenkins' junit-10.xsd defines (elements, required and allowed
attributes, time format), then the same suites, cases, verdicts, skips,
replay commands and signatures as the results JSON.  The parser and the
schema check are themselves tested on broken input first, so a check
that cannot fail fails the test.

usage: ci_formats.py WALKTORTURE SCENARIOS_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

W, SCN = sys.argv[1], sys.argv[2]

# ---------------------------------------------------------------- KTAP

KTAP_START = re.compile(r'^KTAP version 1$')
TEST_HEADER = re.compile(r'^# Subtest: (.*)$')
TEST_PLAN = re.compile(r'^1\.\.([0-9]+)$')
TEST_RESULT = re.compile(r'^(ok|not ok) ([0-9]+)( - )?([^#]*)( # .*)?$')


class KtapError(Exception):
    pass


class Test:
    def __init__(self, name):
        self.name, self.status, self.skip = name, None, None
        self.log, self.subtests = [], []


def ktap_parse(text):
    """The tree of a KTAP document: a root Test whose subtests are the
    top-level tests.  Raises KtapError naming the line at fault."""
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    pos = [0]

    def peek(indent):
        if pos[0] >= len(lines):
            return None
        line = lines[pos[0]]
        if line.strip() == '':
            raise KtapError(f'line {pos[0] + 1}: empty line')
        if not line.startswith(indent) or line[len(indent)] == ' ':
            return ('dedent', line)
        return ('line', line[len(indent):])

    def take():
        pos[0] += 1

    def where():
        return f'line {pos[0] + 1}'

    def diagnostics(indent, test):
        while True:
            p = peek(indent)
            if not p or p[0] != 'line' or not p[1].startswith('#') or \
               TEST_HEADER.match(p[1]):
                return
            test.log.append(p[1])
            take()

    def parse_tests(indent, parent):
        """Header, plan and the plan's tests at this indent."""
        p = peek(indent)
        if not p or p[0] != 'line' or not KTAP_START.match(p[1]):
            raise KtapError(f'{where()}: no "KTAP version 1" header')
        take()
        p = peek(indent)
        if p and p[0] == 'line' and TEST_HEADER.match(p[1]):
            parent.header = TEST_HEADER.match(p[1]).group(1)
            take()
        diagnostics(indent, parent)
        p = peek(indent)
        m = p and p[0] == 'line' and TEST_PLAN.match(p[1])
        if not m:
            raise KtapError(f'{where()}: no test plan')
        take()
        planned = int(m.group(1))
        for num in range(1, planned + 1):
            t = Test(None)
            diagnostics(indent, t)
            p = peek(indent + '    ')
            if p and p[0] == 'line':
                parse_tests(indent + '    ', t)
                diagnostics(indent, t)
            p = peek(indent)
            m = p and p[0] == 'line' and TEST_RESULT.match(p[1])
            if not m:
                raise KtapError(f'{where()}: expected result {num} of '
                                f'{planned}, got {p and p[1]!r}')
            if int(m.group(2)) != num:
                raise KtapError(f'{where()}: expected test number {num}, '
                                f'found {m.group(2)}')
            t.name = m.group(4).strip()
            if getattr(t, 'header', None) is not None and \
               t.header != t.name:
                raise KtapError(f'{where()}: result "{t.name}" for subtest '
                                f'"{t.header}"')
            directive = (m.group(5) or '')[3:]
            if directive.upper().startswith('SKIP'):
                t.skip = directive[4:].strip()
                t.status = 'SKIPPED'
            else:
                t.status = 'SUCCESS' if m.group(1) == 'ok' else 'FAILURE'
            if t.subtests and t.status == 'SUCCESS' and \
               any(s.status == 'FAILURE' for s in t.subtests):
                raise KtapError(f'{where()}: "{t.name}" ok with a failed '
                                'subtest')
            take()
            parent.subtests.append(t)
        diagnostics(indent, parent)

    root = Test('main')
    parse_tests('', root)
    if pos[0] != len(lines):
        raise KtapError(f'{where()}: trailing line {lines[pos[0]]!r}')
    return root


def ktap_selftest():
    good = ('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: s\n'
            '    1..2\n    # diag\n    not ok 1 a\n    ok 2 b # SKIP why\n'
            'not ok 1 s\n')
    root = ktap_parse(good)
    s = root.subtests[0]
    assert [(t.name, t.status, t.skip) for t in s.subtests] == \
        [('a', 'FAILURE', None), ('b', 'SKIPPED', 'why')], s.subtests
    assert s.subtests[0].log == ['# diag']
    bad = {
        'plan count': good.replace('    1..2', '    1..3'),
        'number': good.replace('ok 2 b', 'ok 3 b'),
        'header': good.replace('KTAP version 1\n1..1', 'TAP version 1\n1..1'),
        'subtest name': good.replace('not ok 1 s', 'not ok 1 t'),
        'parent ok over failure': good.replace('not ok 1 s', 'ok 1 s'),
        'indent': good.replace('    ok 2 b', '   ok 2 b'),
        'no plan': good.replace('    1..2\n', ''),
    }
    for what, text in bad.items():
        try:
            ktap_parse(text)
        except KtapError:
            continue
        raise AssertionError(f'KTAP parser accepted a broken {what}')

# --------------------------------------------------------------- JUnit
# Jenkins' junit-10.xsd, the rules that bear on what we write.

SUREFIRE_TIME = re.compile(r'^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$')
SCHEMA = {
    'testsuites': (set(), {'name', 'time', 'tests', 'failures', 'errors'},
                   {'testsuite'}),
    'testsuite': ({'name', 'tests', 'failures', 'errors'},
                  {'name', 'tests', 'failures', 'errors', 'group', 'time',
                   'skipped', 'timestamp', 'hostname', 'id', 'package',
                   'file', 'log', 'url'},
                  {'testsuite', 'properties', 'testcase', 'system-out',
                   'system-err'}),
    'properties': (set(), set(), {'property'}),
    'property': ({'name', 'value'}, {'name', 'value'}, set()),
    'testcase': ({'name'}, {'name', 'time', 'classname', 'group'},
                 {'skipped', 'error', 'failure', 'rerunFailure', 'rerunError',
                  'flakyFailure', 'flakyError', 'system-out', 'system-err'}),
    'failure': (set(), {'type', 'message'}, set()),
    'error': (set(), {'type', 'message'}, set()),
    'skipped': (set(), {'type', 'message'}, set()),
    'system-out': (set(), set(), set()),
    'system-err': (set(), set(), set()),
}


def junit_validate(text):
    """Raises AssertionError where text breaks junit-10.xsd (or the
    counts its testsuite attributes claim)."""
    root = ET.fromstring(text)
    assert root.tag == 'testsuites', f'root element {root.tag}'

    def walk(el):
        assert el.tag in SCHEMA, f'element <{el.tag}> not in the schema'
        required, allowed, children = SCHEMA[el.tag]
        assert required <= set(el.attrib), \
            f'<{el.tag}> lacks {required - set(el.attrib)}'
        assert set(el.attrib) <= allowed, \
            f'<{el.tag}> has {set(el.attrib) - allowed}'
        for c in el:
            assert c.tag in children, f'<{c.tag}> inside <{el.tag}>'
            walk(c)
        if not children:
            assert len(el) == 0
        if 'time' in el.attrib and el.tag in ('testsuite', 'testsuites'):
            assert SUREFIRE_TIME.match(el.attrib['time']), \
                f'<{el.tag}> time={el.attrib["time"]!r}'
    walk(root)
    for ts in root.iter('testsuite'):
        cases = ts.findall('testcase')
        assert int(ts.get('tests')) == len(cases), ts.get('name')
        assert int(ts.get('failures')) == \
            sum(1 for c in cases if c.find('failure') is not None)
        assert int(ts.get('skipped', '0')) == \
            sum(1 for c in cases if c.find('skipped') is not None)
    return root


def junit_selftest():
    good = ('<testsuites><testsuite name="s" tests="1" failures="0" '
            'errors="0" time="0.5"><testcase name="a"/></testsuite>'
            '</testsuites>')
    junit_validate(good)
    bad = {
        'attribute': good.replace('name="a"', 'name="a" verdict="x"'),
        'required': good.replace(' errors="0"', ''),
        'element': good.replace('<testcase name="a"/>',
                                '<testcase name="a"><oops/></testcase>'),
        'time': good.replace('0.5', '1e-3'),
        'count': good.replace('tests="1"', 'tests="2"'),
    }
    for what, text in bad.items():
        try:
            junit_validate(text)
        except AssertionError:
            continue
        raise AssertionError(f'JUnit check accepted a broken {what}')

# ------------------------------------------------ against the results


def expected(results):
    """{suite: {name: (verdict, skip reason, scenario)}} of results files
    merged as merge does: a scenario per (suite, name)."""
    want = {}
    for f in results:
        doc = json.load(open(f))
        for sc in doc['scenarios']:
            cur = want.setdefault(sc['suite'], {}).get(sc['name'])
            fails = (cur[2]['failures'] if cur else []) + sc['failures']
            verdict = 'FAIL' if sc['verdict'] == 'FAIL' or \
                (cur and cur[0] == 'FAIL') else 'PASS'
            want[sc['suite']][sc['name']] = (verdict, None,
                                             dict(sc, failures=fails))
        for sk in doc.get('skipped', []):
            want.setdefault(sk['suite'], {}).setdefault(
                sk['name'], ('SKIP', sk['reason'], None))
    return want


def check_ktap(path, want):
    root = ktap_parse(open(path).read())
    assert [t.name for t in root.subtests] == list(want), \
        f'{path}: suites {[t.name for t in root.subtests]} != {list(want)}'
    for suite in root.subtests:
        cases = want[suite.name]
        assert [t.name for t in suite.subtests] == list(cases), \
            f'{path}: {suite.name}: {[t.name for t in suite.subtests]}'
        for t in suite.subtests:
            verdict, skip, sc = cases[t.name]
            status = {'PASS': 'SUCCESS', 'FAIL': 'FAILURE',
                      'SKIP': 'SKIPPED'}[verdict]
            assert t.status == status, f'{path}: {t.name}: {t.status}'
            if skip:
                assert t.skip == skip, f'{path}: {t.name}: skip {t.skip!r}'
            log = '\n'.join(t.log)
            for fl in (sc['failures'] if sc else []):
                assert '# replay: ' + fl['replay'] in log, \
                    f'{path}: {t.name}: no replay line {fl["replay"]}'
                if fl.get('signature'):
                    assert '# signature: ' + fl['signature'] in log, \
                        f'{path}: {t.name}: no signature line'
                assert fl['message'].split('\n')[0] in log
        any_fail = any(t.status == 'FAILURE' for t in suite.subtests)
        assert suite.status == ('FAILURE' if any_fail else
                                'SKIPPED' if all(t.status == 'SKIPPED' for t in suite.subtests)
                                else 'SUCCESS'), f'{path}: {suite.name}'
    return sum(len(s.subtests) for s in root.subtests)


def check_junit(path, want):
    root = junit_validate(open(path).read())
    suites = root.findall('testsuite')
    assert [s.get('name') for s in suites] == list(want), path
    for ts in suites:
        cases = want[ts.get('name')]
        got = ts.findall('testcase')
        assert [c.get('name') for c in got] == list(cases), path
        for c in got:
            verdict, skip, sc = cases[c.get('name')]
            assert c.get('classname') == 'walktorture.' + ts.get('name')
            f, s = c.find('failure'), c.find('skipped')
            assert (f is not None) == (verdict == 'FAIL'), c.get('name')
            assert (s is not None) == (verdict == 'SKIP'), c.get('name')
            if s is not None:
                assert s.get('message') == skip
            if f is not None:
                first = sc['failures'][0]
                assert f.get('type') == first['kind']
                assert f.get('message') == first['message']
                for fl in sc['failures']:
                    assert 'replay: ' + fl['replay'] in f.text, c.get('name')
                    if fl.get('signature'):
                        assert 'signature: ' + fl['signature'] in f.text
    assert int(root.get('tests')) == sum(len(c) for c in want.values())


def run(*args, rc=(0, 1)):
    p = subprocess.run([W, *args], capture_output=True, text=True)
    assert p.returncode in rc, f'walktorture {" ".join(args)}: exit ' \
        f'{p.returncode}\n{p.stderr}'
    return p


def main():
    ktap_selftest()
    junit_selftest()
    d = tempfile.mkdtemp(prefix='wt-ci-')
    j = lambda n: os.path.join(d, n)
    directed = os.path.join(SCN, 'basic/quiet.yaml')
    # failing (an oracle failure with a replay line and a signature) and
    # passing scenarios
    run('run', 'basic/quiet', 'basic/negative', '--bug', 'step_into_no_seq',
        '--json', j('a.json'), '--ktap', j('a.tap'), '--junit', j('a.xml'))
    # a skipped one: a directed schedule under --mode stress
    run('run', directed, '--mode', 'stress', '--duration', '50ms',
        '--json', j('b.json'), '--ktap=' + j('b.tap'), '--junit=' + j('b.xml'))
    # an undirected twin
    run('run', '--undirected', directed, '-n', '20', '--json', j('c.json'),
        '--ktap', j('c.tap'), '--junit', j('c.xml'))
    n = 0
    for x in 'abc':
        want = expected([j(x + '.json')])
        n += check_ktap(j(x + '.tap'), want)
        check_junit(j(x + '.xml'), want)
    assert 'SKIP' in str(expected([j('b.json')])), 'b.json: nothing skipped'
    assert any(name.endswith('.undirected') for s in expected([j('c.json')]).values()
               for name in s), 'c.json: no twin'
    # merge and report write them from results files
    files = [j(x + '.json') for x in 'abc']
    run('merge', *files, '-o', j('m.json'), '--ktap', j('m.tap'),
        '--junit', j('m.xml'), rc=(0,))
    run('report', *files, '--ktap', j('r.tap'), '--junit', j('r.xml'), rc=(0,))
    want = expected(files)
    for x in 'mr':
        check_ktap(j(x + '.tap'), want)
        check_junit(j(x + '.xml'), want)
    # a nightly: every seed's results merged, a case per scenario
    run('nightly', 'basic', '--seeds', '2', '-n', '1', '--out', j('night'),
        '--ktap', j('n.tap'), '--junit', j('n.xml'))
    night = [os.path.join(r, f) for r, _, fs in os.walk(j('night'))
             for f in fs if f.startswith('results-') and f.endswith('.json')]
    assert len(night) == 2, night
    want = expected(sorted(night))
    check_ktap(j('n.tap'), want)
    check_junit(j('n.xml'), want)
    print(f'ok: KTAP and JUnit of run (x3), merge, report and nightly; '
          f'{n} run cases')


main()
