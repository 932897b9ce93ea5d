# Mimics the PATTERN of the look-alike beside it: it only plays with the agent (no `learn`), to watch it act. Independent re-creation for seedlint's test corpus, not its code.

from agent import PolicyAgent

agent = PolicyAgent(states=4, actions=2)
for episode in range(3):
    print([agent.act([0.0, 0.0, 0.0, 0.0]) for step in range(20)])
