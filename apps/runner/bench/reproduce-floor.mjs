// The floor of the reproduce goal, shared by bench/index.mjs (timed) and bench/instruction-counts.mjs
// (counted): one seed's 240 rollouts of the reproduction bandit with no learning at all (reset, action
// probabilities, sample, step), with the runner's own environment, policy and random streams.

/**
 * @param {Record<string, any>} training - the module built from src/training.ts
 * @returns {() => number} one floor: the 240 rollouts of seed 0, returning the sum of their rewards
 */
export function reproduceFloor(training) {
  const { ActionDistribution, createEnvironment, REPRODUCE_CONFIG, seededStreams, TabularPolicy } = training;
  return () => {
    const streams = seededStreams(0);
    const env = createEnvironment(REPRODUCE_CONFIG.environment, streams.environment);
    const policy = new TabularPolicy(env.numActions, env.observationCount);
    const distribution = new ActionDistribution(env.numActions);
    let sum = 0;
    for (let i = 0; i < REPRODUCE_CONFIG.iterations; i++) {
      const observation = env.reset();
      sum += env.step(distribution.of(policy, observation).sample(streams.policy())).reward;
    }
    return sum;
  };
}
