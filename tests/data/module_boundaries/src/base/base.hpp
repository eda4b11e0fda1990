#pragma once
namespace fixture::base {
int value();
}
