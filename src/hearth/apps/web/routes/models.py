"""The model server's models, and which one the agent asks for."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from hearth.apps.web.schemas import ModelSelect
from hearth.apps.web.state import State
from hearth.core.errors import HearthError

router = APIRouter(prefix="/models", tags=["models"])


class ModelsOut(BaseModel):
    current: str
    models: list[str]
    error: str | None = None  # why the server could not be asked, if it could not


class CurrentModel(BaseModel):
    current: str


class ModelSearchOut(BaseModel):
    query: str
    current: str
    models: list[str]
    error: str | None = None


@router.get("")
async def models(state: State) -> ModelsOut:
    try:
        listed = await state.rt.list_models()
    except HearthError as exc:
        return ModelsOut(current=state.rt.model.name, models=[], error=exc.message)
    return ModelsOut(current=state.rt.model.name, models=listed)


@router.get("/search")
async def search_models(state: State, q: str = "") -> ModelSearchOut:
    """The server's models whose names hold every word of `q` (any case); all of them for none."""
    words = q.lower().split()
    try:
        listed = await state.rt.list_models()
    except HearthError as exc:
        return ModelSearchOut(query=q, current=state.rt.model.name, models=[], error=exc.message)
    found = [name for name in listed if all(word in name.lower() for word in words)]
    return ModelSearchOut(query=q, current=state.rt.model.name, models=found)


@router.post("/select")
async def select_model(body: ModelSelect, state: State) -> CurrentModel:
    """Ask the server for this model from the next request on."""
    state.rt.select_model(body.model_id)
    return CurrentModel(current=state.rt.model.name)
