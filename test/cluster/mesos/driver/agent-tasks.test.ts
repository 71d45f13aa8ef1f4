import t from 'tap';
import { AgentTasks } from '../../../../src/cluster/mesos/agent-tasks';

t.test('AgentTasks follows launches and updates per agent', async (t) => {
  const tasks = new AgentTasks();
  tasks.add('a', 'S1');
  tasks.add('a', 'S1');
  tasks.updated('b', 'S1', 'TASK_RUNNING');
  tasks.updated('c', 'S1', 'TASK_UNREACHABLE');
  tasks.updated('d', 'S1', 'TASK_RUNNING');
  tasks.updated('d', 'S1', 'TASK_KILLED');
  tasks.updated('e', 'S1', 'TASK_RUNNING');
  tasks.updated('e', undefined, 'TASK_UNKNOWN');
  tasks.updated('f', undefined, 'TASK_RUNNING');
  tasks.updated('g', 'S1', 'TASK_RUNNING');
  tasks.updated('g', 'S2', 'TASK_RUNNING');
  t.equal(tasks.size, 4, 'a, b, c on S1 and g on S2; d ended, e unknown to the master, f without an agent');
  t.same(tasks.take('S1').sort(), ['a', 'b', 'c']);
  t.same(tasks.take('S1'), [], 'taken: the answers add the live ones back');
  t.same(tasks.take('S2'), ['g'], 'a task reported from another agent moved there');
  tasks.add('h', 'S3');
  tasks.clear();
  t.equal(tasks.size, 0);
});
