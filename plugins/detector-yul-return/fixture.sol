pragma solidity ^0.8.0;

contract Vault {
    mapping(address => uint256) public balances;

    function _verify(address who) internal view returns (bool ok) {
        ok = balances[who] > 0;
        assembly {
            mstore(0, ok)
            return(0, 32) // expect: yul-return
        }
    }

    function withdraw() external {
        require(_verify(msg.sender));
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        payable(msg.sender).transfer(amount);
    }

    function getBalance(address who) external view returns (uint256) {
        uint256 b = balances[who];
        assembly {
            mstore(0, b)
            return(0, 32)
        }
    }

    fallback() external {
        assembly {
            return(0, 0)
        }
    }

    function _helper(uint256 x) internal pure returns (uint256 y) {
        assembly {
            function double(v) -> r {
                r := add(v, v)
                leave
            }
            y := double(x)
        }
    }
}

contract Proxy {
    address public implementation;

    function _delegate(address impl) internal {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }

    function _fallback() internal {
        _delegate(implementation);
    }

    fallback() external payable {
        _fallback();
    }
}
