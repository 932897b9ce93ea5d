# Mimics the PATTERN of the tutorial's entry point: it plays episodes and calls `agent.learn()` at the end of each, in words no other pattern of the rule matches; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

from agent import PolicyAgent

agent = PolicyAgent(states=4, actions=2)
for episode in range(10):
    state = [0.0, 0.0, 0.0, 0.0]
    for move in range(20):
        action = agent.act(state)
        agent.remember(state, action, 1.0)
    agent.learn()
