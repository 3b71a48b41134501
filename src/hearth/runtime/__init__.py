"""Configuration, session assembly and the hub of live sessions; products and front-ends use
them through the session API, `hearth.runtime.api`."""
