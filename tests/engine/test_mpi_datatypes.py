"""mpif.h datatype sizes in bytes (a message's length is count x this size)."""

from __future__ import annotations

from interp.application.catalog import mpi_constants, mpi_datatype_bytes


def test_sizes():
    size = mpi_datatype_bytes()
    c = mpi_constants()
    assert size[c["MPI_DOUBLE_COMPLEX"]] == 16  # two REAL*8
    assert size[c["MPI_COMPLEX"]] == 8  # two REAL*4
    assert size[c["MPI_DOUBLE_PRECISION"]] == 8
    assert size[c["MPI_INTEGER"]] == 4
    assert size[c["MPI_LOGICAL"]] == 4
    assert size[c["MPI_INTEGER8"]] == 8


def test_communicator_constants_are_distinct():
    c = mpi_constants()
    handles = {c["MPI_COMM_WORLD"], c["MPI_COMM_SELF"], c["MPI_COMM_NULL"]}
    assert len(handles) == 3
