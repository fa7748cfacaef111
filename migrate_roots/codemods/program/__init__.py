"""The program model: what each file says (facts), and what the project means (model).

- `facts.py`: frozen, picklable records the index extracts from one file (server objects it binds, tool
  registrations it makes, star imports, re-exported names).
- `recognise.py`: libcst nodes -> those records, while the rules walk the file (one decider per question:
  "is this a tool registration, on which server object").
- `model.py`: the records of a group of files -> answers (which functions are tools, which registrations
  name a server object that cannot be resolved, and where), read by the rules' plans.
"""
