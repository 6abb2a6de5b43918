print("scenarioctl arrives next")
