"""Drives pacer with a real Marathon client library: Debian's python3-marathon (0.13).

Usage: python3 marathon_client.py http://127.0.0.1:PORT

Prints one line per check, "ok - <what>" or "not ok - <what>: <detail>", then "done"; exits 0 when
every check passed. Run by test/e2e/marathon-client.test.ts against a real pacer process.

Notes on the library (not pacer): it predates Marathon 1.9's roles, so it cannot parse a
top-level group (`enforceRole`, fact 67) nor a queue entry (`role`, facts 90/115), both of which
Marathon 1.11 writes as pacer does; the groups used here are nested (/e2e/grp), and the queue is
read through the library's raw session.
"""

import sys
import threading
import time
import traceback

from marathon import MarathonClient
from marathon.models import MarathonApp, MarathonGroup

URL = sys.argv[1]
WAIT_S = 90
failures = []


def check(what, condition, detail=''):
    if condition:
        print(f'ok - {what}', flush=True)
    else:
        failures.append(what)
        print(f'not ok - {what}: {detail}', flush=True)


def wait_until(what, condition, timeout=WAIT_S):
    """Polls condition() (every 0.25 s, bounded): a passed check once it holds, a failed one on timeout."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = condition()
            if last:
                check(what, True)
                return last
        except Exception as e:  # a transient error while polling is retried
            last = e
        time.sleep(0.25)
    check(what, False, f'timed out after {timeout} s (last: {last!r})')
    return None


client = MarathonClient(URL, timeout=30)

# ── the event stream, read by the library in the background ─────────────────────────────────────
events = []
stream_errors = []


def listen():
    try:
        for event in client.event_stream():
            events.append(event)
    except Exception:  # the library raises on an event it cannot parse
        stream_errors.append(traceback.format_exc())


threading.Thread(target=listen, daemon=True).start()
wait_until('the event stream attaches', lambda: any(e.event_type == 'event_stream_attached' for e in events))


def running_tasks(app_id):
    return [t for t in client.list_tasks(app_id) if t.state == 'TASK_RUNNING']


def deployments_done():
    return client.list_deployments() == []


def main():
    # ── system ───────────────────────────────────────────────────────────────────────────────────
    info = client.get_info()
    check('get_info: name marathon, a 1.11 version', info.name == 'marathon' and info.version.startswith('1.11.'), info.version)
    # The library asks for application/json on every call, so Marathon (fact 96) answers the JSON string.
    check('ping', client.ping() == b'"pong"', repr(client.ping()))
    # pacer was started with --port 0: the leader is the port it really listens on.
    check('get_leader names the address pacer listens on', client.get_leader()['leader'] == URL.split('//')[1], repr(client.get_leader()))
    check('X-Marathon-Leader too', client.session.get(f'{URL}/ping', timeout=30).headers.get('X-Marathon-Leader') == URL)
    check('and http_config.http_port', info.http_config.http_port == int(URL.rsplit(':', 1)[1]), repr(info.http_config.http_port))
    check('get_metrics', 'counters' in client.get_metrics())

    # ── an app: create, read, scale, kill, restart, update, versions ────────────────────────────
    app = client.create_app('/e2e/app', MarathonApp(cmd='sleep 600', cpus=0.01, mem=8, instances=1))
    check('create_app returns the created app', app.id == '/e2e/app' and app.instances == 1 and app.cmd == 'sleep 600', repr(app))
    wait_until('the app runs one task', lambda: len(running_tasks('/e2e/app')) == 1 and deployments_done())
    got = client.get_app('/e2e/app', embed_tasks=True)
    check('get_app with tasks', got.tasks_running == 1 and len(got.tasks) == 1, repr(got))
    check('list_apps finds it', [a.id for a in client.list_apps(app_id='e2e')] == ['/e2e/app'])

    deployment = client.scale_app('/e2e/app', instances=3)
    check('scale_app answers a deployment', 'deploymentId' in deployment, repr(deployment))
    wait_until('scaled to three running tasks', lambda: len(running_tasks('/e2e/app')) == 3 and deployments_done())
    client.scale_app('/e2e/app', delta=-1)
    wait_until('scaled down by one', lambda: len(running_tasks('/e2e/app')) == 2 and deployments_done())

    victim = running_tasks('/e2e/app')[0]
    killed = client.kill_task('/e2e/app', victim.id)
    check('kill_task returns the killed task', killed.id == victim.id, repr(killed))
    wait_until('the killed task is replaced', lambda: victim.id not in [t.id for t in running_tasks('/e2e/app')] and len(running_tasks('/e2e/app')) == 2)

    victim = running_tasks('/e2e/app')[0]
    client.kill_task('/e2e/app', victim.id, scale=True)
    wait_until('kill_task with scale lowers instances', lambda: client.get_app('/e2e/app').instances == 1 and len(running_tasks('/e2e/app')) == 1 and deployments_done())

    client.scale_app('/e2e/app', instances=2)
    wait_until('scaled back to two', lambda: len(running_tasks('/e2e/app')) == 2 and deployments_done())
    ids = [t.id for t in running_tasks('/e2e/app')]
    check('kill_given_tasks with scale', client.kill_given_tasks([ids[0]], scale=True))
    wait_until('one left after kill_given_tasks', lambda: client.get_app('/e2e/app').instances == 1 and len(running_tasks('/e2e/app')) == 1 and deployments_done())

    before = {t.id for t in running_tasks('/e2e/app')}
    restart = client.restart_app('/e2e/app')
    check('restart_app answers a deployment', 'deploymentId' in restart, repr(restart))
    wait_until('the restart replaced the task', lambda: deployments_done() and len(running_tasks('/e2e/app')) == 1 and not before & {t.id for t in running_tasks('/e2e/app')})

    update = client.update_app('/e2e/app', MarathonApp(cmd='sleep 700'))
    check('update_app answers a deployment', 'deploymentId' in update, repr(update))
    wait_until('the update is deployed', lambda: deployments_done() and client.get_app('/e2e/app').cmd == 'sleep 700')
    versions = client.list_versions('/e2e/app')
    check('list_versions', len(versions) >= 2, repr(versions))
    old = client.get_version('/e2e/app', versions[-1])
    check('get_version', old.id == '/e2e/app', repr(old))

    result = client.kill_tasks('/e2e/app', scale=True)
    check('kill_tasks with scale answers a deployment', 'deploymentId' in result, repr(result))
    wait_until('no task left after kill_tasks with scale', lambda: client.get_app('/e2e/app').instances == 0 and running_tasks('/e2e/app') == [] and deployments_done())

    deleted = client.delete_app('/e2e/app')
    check('delete_app answers a deployment', 'deploymentId' in deleted, repr(deleted))
    wait_until('the app is gone', lambda: [a.id for a in client.list_apps(app_id='e2e/app')] == [] and deployments_done())

    # ── a group: create, read, scale, delete ────────────────────────────────────────────────────
    group = MarathonGroup(id='/e2e/grp', apps=[MarathonApp(id='/e2e/grp/web', cmd='sleep 600', cpus=0.01, mem=8, instances=1)])
    created = client.create_group(group)
    check('create_group answers a deployment', 'deploymentId' in created, repr(created))
    wait_until('the group app runs', lambda: len(running_tasks('/e2e/grp/web')) == 1 and deployments_done())
    got = client.get_group('/e2e/grp')
    check('get_group', got.id == '/e2e/grp' and [a.id for a in got.apps] == ['/e2e/grp/web'], repr(got))
    client.scale_group('/e2e/grp', 2)
    wait_until('scale_group doubled the app', lambda: len(running_tasks('/e2e/grp/web')) == 2 and deployments_done())
    client.delete_group('/e2e/grp')
    wait_until('the group is gone', lambda: running_tasks_or_none('/e2e/grp/web') is None and deployments_done())

    # ── deployments and the launch queue ────────────────────────────────────────────────────────
    stuck = client.create_app('/e2e/big', MarathonApp(cmd='sleep 600', cpus=10000, mem=8, instances=1))
    check('an app no offer fits is created', stuck.id == '/e2e/big')
    listed = wait_until('its deployment is listed', lambda: [d for d in client.list_deployments() if '/e2e/big' in d.affected_apps])
    queue = client.session.get(f'{URL}/v2/queue', timeout=30).json()['queue']
    check('it waits in the queue', [q['app']['id'] for q in queue] == ['/e2e/big'], repr(queue))
    client.reset_delay('/e2e/big')
    check('reset_delay', True)
    if listed:
        rollback = client.delete_deployment(listed[0].id)
        check('delete_deployment rolls back', 'deploymentId' in rollback, repr(rollback))
        wait_until('the rollback removed the app', lambda: [a.id for a in client.list_apps(app_id='e2e/big')] == [] and deployments_done())

    # ── what the event stream saw ───────────────────────────────────────────────────────────────
    wanted = {'api_post_event', 'group_change_success', 'deployment_info', 'deployment_step_success', 'deployment_success',
              'deployment_failed', 'status_update_event', 'instance_changed_event', 'app_terminated_event'}
    wait_until('the event stream saw every kind of event', lambda: wanted <= {e.event_type for e in events})
    infos = [e for e in events if e.event_type == 'deployment_info']
    check('deployment_info plans parse with both roots', infos and all(e.plan.original is not None and e.plan.target.id == '/' for e in infos))
    check('the event stream never failed to parse an event', stream_errors == [], ''.join(stream_errors))


def running_tasks_or_none(app_id):
    try:
        return running_tasks(app_id)
    except Exception:
        return None


try:
    main()
except Exception:
    failures.append('exception')
    print(f'not ok - the client raised: {traceback.format_exc()!r}', flush=True)
print('done', flush=True)
sys.exit(1 if failures else 0)
