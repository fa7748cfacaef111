"""The client's roots capability, asked by a function of its own module (oh-my-cassette's shape, imported)."""


def client_has_roots(ctx) -> bool:
    caps = ctx.session.client_params.capabilities
    return caps.roots is not None
